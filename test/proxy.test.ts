/**
 * D36: the reverse-proxy sample of docs/operations.md tried for real (scripts/proxy-trial.mjs):
 * Caddy in front of two `serve` processes routes to both, takes a draining one out through its
 * /healthz without a failed request, and does not expose /metrics. Needs Debian's `caddy`
 * (.ci/run installs it): in CI a missing caddy fails the test instead of skipping it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../scripts/proxy-trial.mjs', import.meta.url));
const installed = spawnSync('caddy', ['version']).status === 0;
if (!installed && process.env.CI === 'true') throw new Error('CI=true but caddy is not installed: .ci/run installs it (apt-get install -y caddy)');

test(
  'Caddy in front of two serve processes: both answer, a draining one is taken out with no failed request, /metrics is not reachable',
  { skip: installed ? false : 'caddy is not installed (apt-get install -y caddy); CI installs it and never skips this' },
  () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', timeout: 120_000 });
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const servedBy = summary.servedBy as { a: number; b: number };
    assert.ok(servedBy.a > 0 && servedBy.b > 0, `round robin reached both: ${JSON.stringify(servedBy)}`);
    assert.equal(summary.drainingHealthz, 503);
    assert.equal(summary.aExit, 0);
    const during = summary.duringDrain as Record<string, number>;
    assert.deepEqual(Object.keys(during), ['200'], `every request while one process drained: ${JSON.stringify(during)}`);
    assert.equal(summary.metricsViaProxy, 404);
  },
);
