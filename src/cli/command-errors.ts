/** The CLI's own errors: only src/cli/ throws them; src/cli/cli.ts maps every error to an exit status. */

/** A failure an operator's command reports with exit status 1 (not a bug). */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** Flags that do not make sense together or have bad values: exit status 2 (D23). */
export class UsageError extends CommandError {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The server's settings (RISKLOOKUP_*) are wrong: exit status 1; `problem` says which and why. */
export class SettingsError extends CommandError {
  constructor(readonly problem: string) {
    super(`${problem}\nnothing was changed: fix the settings and run again`);
    this.name = 'SettingsError';
  }
}
