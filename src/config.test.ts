import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from './config.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD } from './search/near-match-score.ts';

test('near-match threshold: default, flag over environment, refused outside 0–1', () => {
  assert.equal(parseConfig({}, {}).nearMatchThreshold, DEFAULT_NEAR_MATCH_THRESHOLD);
  assert.equal(parseConfig({}, { RISKLOOKUP_NEAR_MATCH_THRESHOLD: '0.8' }).nearMatchThreshold, 0.8);
  assert.equal(parseConfig({ nearMatchThreshold: '.65' }, { RISKLOOKUP_NEAR_MATCH_THRESHOLD: '0.8' }).nearMatchThreshold, 0.65);
  for (const bad of ['1.5', 'x', '-0.1', '.']) {
    assert.throws(() => parseConfig({ nearMatchThreshold: bad }, {}), /near-match threshold .* from 0 to 1/, bad);
  }
});
