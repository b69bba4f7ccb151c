/**
 * The CLI loads only the command that runs (src/cli/cli.ts); the others are stand-ins with a help
 * line. Each stand-in's line must be the loaded command's own, and the right command must load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Help } from 'commander';
import { buildCli, COMMANDS, requestedCommand } from '../src/cli/cli.ts';
import { runCli } from './helpers/cli.ts';

test('each stand-in shows the help line of the command it loads', async () => {
  for (const entry of COMMANDS) {
    const command = await entry.load();
    assert.equal(command.name(), entry.name);
    assert.equal(entry.term, new Help().subcommandTerm(command), `${entry.name}: term`);
    assert.equal(entry.description, command.description(), `${entry.name}: description`);
  }
});

test('the command named by the arguments is the one loaded', async () => {
  assert.equal(requestedCommand(['--db', 'sqlite:x.db', '--json', 'member', 'add', 'M-1']), 'member');
  assert.equal(requestedCommand(['help', 'key']), 'key');
  assert.equal(requestedCommand(['--help']), undefined);
  const program = await buildCli(['node', 'risklookup', 'key', 'issue', 'M-1']);
  const loaded = program.commands.filter((c) => c.commands.length > 0 || c.options.length > 0).map((c) => c.name());
  assert.deepEqual(loaded, ['key']);
});

test('a bad RISKLOOKUP_DAILY_LIMIT is reported, not silently replaced by 100', async () => {
  const result = await runCli(['key', 'issue', 'M-1', '--db', 'sqlite::memory:'], { RISKLOOKUP_DAILY_LIMIT: 'lots' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /RISKLOOKUP_DAILY_LIMIT\) must be a whole number from 1 to 10000000, got 'lots'/);
});
