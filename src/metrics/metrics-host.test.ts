import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPrivateOrLoopback, metricsHostProblem } from './metrics-host.ts';

test('D36: the metrics port listens on loopback or a private address; elsewhere only when asked', () => {
  for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost', '10.1.2.3', '172.20.0.5', '192.168.1.10', 'fd00::5']) {
    assert.ok(isPrivateOrLoopback(host), host);
    assert.equal(metricsHostProblem(host, false), null, host);
  }
  for (const host of ['0.0.0.0', '::', '8.8.8.8', '172.32.0.1', 'metrics.example.com', '2001:db8::1']) {
    assert.ok(!isPrivateOrLoopback(host), host);
    assert.match(metricsHostProblem(host, false) ?? '', /--metrics-public/, host);
    assert.equal(metricsHostProblem(host, true), null, host);
  }
});
