/** How every command reports: one JSON object with --json, readable lines otherwise. */
export interface Output {
  json: boolean;
  /** Prints the result: `data` with --json, `text` otherwise. */
  result(data: unknown, text: string | string[]): void;
  /** A progress or status line for a person; silent with --json. */
  info(text: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(data, text) {
      if (json) process.stdout.write(`${JSON.stringify(data)}\n`);
      else process.stdout.write(`${Array.isArray(text) ? text.join('\n') : text}\n`);
    },
    info(text) {
      if (!json) process.stderr.write(`${text}\n`);
    },
  };
}
