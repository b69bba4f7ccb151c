import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readWatchlistCap } from './watchlist.service.ts';

test('readWatchlistCap: 0 to 1000000 or default (any case, spaces around); anything else names the setting and repeats the value', () => {
  assert.deepEqual(readWatchlistCap('--watchlist-cap', '0'), { value: 0 });
  assert.deepEqual(readWatchlistCap('--watchlist-cap', ' 1000000 '), { value: 1_000_000 });
  assert.deepEqual(readWatchlistCap('--watchlist-cap', 'Default'), { value: null });
  for (const raw of ['', '-1', '1000001', '12345678', '2.5', '1e3', 'ten', '0x10']) {
    assert.deepEqual(
      readWatchlistCap('--watchlist-cap', raw),
      { problem: `--watchlist-cap must be a whole number from 0 to 1000000, or default; got '${raw}'` },
      raw,
    );
  }
});
