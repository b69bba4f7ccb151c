// A reporter for node --test beside the TAP one (scripts/run-tests.mjs): it writes only the
// tests that failed, each with its file, its suites and the first lines of its error, so that
// the end of a long CI log names what failed (the TAP above it can be thousands of lines).
// Suites that failed only because a test inside them did are left out: their tests are listed.

const ERROR_LINES = 12;

function errorText(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? String(cause)) : typeof cause === 'string' ? cause : JSON.stringify(cause);
  // Node's own frames say nothing about the test.
  const lines = String(text)
    .split('\n')
    .filter((line) => !/^\s+at (.*\()?node:/.test(line));
  return lines.slice(0, ERROR_LINES).join('\n');
}

export default async function* failures(source) {
  /** Names of the tests started and not yet finished, per file, by nesting. */
  const open = new Map();
  const failed = [];
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:start') {
      const path = open.get(data.file) ?? [];
      path[data.nesting] = data.name;
      path.length = data.nesting + 1;
      open.set(data.file, path);
    } else if (type === 'test:fail' && data.details?.error?.failureType !== 'subtestsFailed') {
      const suites = (open.get(data.file) ?? []).slice(0, data.nesting);
      failed.push(`✖ ${[...suites, data.name].join(' › ')}\n  file: ${data.file ?? '(unknown)'}\n${errorText(data.details?.error).replace(/^/gm, '    ')}\n`);
    }
  }
  if (failed.length > 0) yield `${failed.length} failed:\n\n${failed.join('\n')}`;
}
