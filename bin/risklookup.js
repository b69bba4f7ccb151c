#!/usr/bin/env node
// The one program (D23). Runs the compiled and bundled JavaScript in dist/bundle/, which
// `npm ci` builds (the `prepare` script) and `npm test` rebuilds (scripts/bundle.mjs).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bundle/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('risklookup: dist/ is missing; run `npm ci` or `npm run build` in the checkout first\n');
  process.exit(1);
}
const { runCli } = await import(entry.href);
process.exitCode = await runCli(process.argv);
