/** Runs the real `risklookup` program in a child process. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_KEY_RING_ENV } from './secrets.ts';

export const BIN = fileURLToPath(new URL('../../bin/risklookup.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the program with the tests' key ring (D35) unless `env` sets RISKLOOKUP_SECRET_KEYS itself
 * (an empty value: no ring).
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...TEST_KEY_RING_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface ServeProcess {
  url: string;
  stdout(): string;
  stderr(): string;
  /** Sends a signal and returns at once. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM (or the given signal), then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A test server's stop waits this long for just-accepted requests (the default is 1 s; see drainGraceOf). */
const TEST_DRAIN_GRACE_MS = '100';

/**
 * Starts `risklookup serve` with the given arguments (and the tests' key ring, as runCli) and waits for its `listening on` line.
 * `node`: options of node itself (before the program); `cwd`: where the process runs.
 */
export async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { node?: string[]; cwd?: string; /** The line that says it started (a process with no API has no URL: `url` is then ''). */ ready?: RegExp } = {},
): Promise<ServeProcess> {
  const ready = options.ready ?? /listening on (https?:\/\/\S+)/;
  const child = spawn(process.execPath, [...(options.node ?? []), BIN, 'serve', '--port', '0', '--log-level', 'warn', ...args], {
    env: { ...process.env, RISKLOOKUP_DRAIN_GRACE_MS: TEST_DRAIN_GRACE_MS, ...TEST_KEY_RING_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code, signal) => {
      // A process ended by a signal (code null) says which in its stderr, for the assertion's message.
      if (signal) stderr += `\n[serve ended by ${signal}]`;
      resolve(code);
    }),
  );
  const started = Date.now();
  while (!ready.test(stdout)) {
    if (child.exitCode !== null || Date.now() - started > 30_000) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start: ${stdout}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: ready.exec(stdout)![1] ?? '',
    stdout: () => stdout,
    stderr: () => stderr,
    signal: (signal) => {
      child.kill(signal);
    },
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}
