import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartScaleTop, renderUsageChart } from './usage-chart.ts';

const labels = { title: 'Usage', description: 'API and portal searches per day', api: 'API', portal: 'Portal <b>' };

test('the scale tops out at a round number at least the largest day', () => {
  assert.deepEqual([0, 4, 5, 6, 11, 99, 100, 101, 3000].map(chartScaleTop), [5, 5, 5, 10, 20, 100, 100, 200, 5000]);
});

test('two bars a day whose heights follow the numbers; each bar names its day and value; labels escaped', () => {
  const series = [
    { day: '2026-11-20', api: 0, portal: 5 },
    { day: '2026-11-21', api: 10, portal: 2 },
  ];
  const svg = renderUsageChart(series, labels).text;
  assert.match(svg, /^<svg\s[^>]*role="img"\s+aria-labelledby="usage-chart-title usage-chart-desc"\s*>/);
  const bars = [...svg.matchAll(/<rect\s[^>]*height="([\d.]+)"[^>]*>\s*<title>([^<]*)<\/title>/g)].map((m) => [m[2], Number(m[1])]);
  assert.deepEqual(
    bars.map((b) => b[0]),
    ['2026-11-20 API: 0', '2026-11-20 Portal &lt;b&gt;: 5', '2026-11-21 API: 10', '2026-11-21 Portal &lt;b&gt;: 2'],
  );
  const heights = bars.map((b) => b[1] as number);
  assert.equal(heights[0], 0);
  assert.equal(heights[2], 216, 'the largest day fills the plot (scale top 10)');
  assert.equal(heights[1], 108);
  assert.ok(!svg.includes('<b>'));
  assert.ok(!/style=/.test(svg), 'no inline style (CSP)');
  const gridLabels = [...svg.matchAll(/<text\s[^>]*text-anchor="end"[^>]*>([^<]*)<\/text/g)].map((m) => m[1]);
  assert.deepEqual(gridLabels, ['0', '2', '4', '6', '8', '10'], 'whole numbers only');
});
