#!/usr/bin/env node
// The one program (D23). Runs the compiled JavaScript in dist/, which `npm ci` builds
// (the `prepare` script) and `npm test` rebuilds.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('risklookup: dist/ is missing; run `npm ci` or `npm run build` in the checkout first\n');
  process.exit(1);
}
const { runCli } = await import(entry.href);
process.exitCode = await runCli(process.argv);
