#!/usr/bin/env node
// The one program (D23). TypeScript sources are loaded through tsx, so a checkout works
// right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/cli.ts');
process.exitCode = await runCli(process.argv);
