/** Load from outside the test process: bursts from a child process, sequential timed requests. */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const BURST_CLIENT = fileURLToPath(new URL('./burst-client.mjs', import.meta.url));

export interface BurstResult {
  count: number;
  seconds: number;
  /** Answers by HTTP status (0 = no answer). */
  statuses: Record<string, number>;
  /** Non-2xx answers by `status reason`. */
  reasons: Record<string, number>;
  unavailableWithoutRetryAfter: number;
  p50: number;
  p99: number;
}

/**
 * Starts `count` requests at once from a separate process; resolves with what came back.
 * The client process runs at the lowest CPU priority: it stands for other members' machines, and
 * on a small test machine it would otherwise take the CPU from the servers it measures.
 */
export function startBurst(urls: string[], path: string, key: string, count: number): { done: Promise<BurstResult> } {
  const child = spawn(process.execPath, [BURST_CLIENT, '--urls', urls.join(','), '--path', path, '--key', key, '--count', String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.pid !== undefined) setPriority(child.pid, 19);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const done = new Promise<BurstResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as BurstResult) : reject(new Error(`burst client exited ${code}: ${out}`))));
  });
  return { done };
}

export function burst(urls: string[], path: string, key: string, count: number): Promise<BurstResult> {
  return startBurst(urls, path, key, count).done;
}

/** `n` requests one after another over one kept-alive connection, alternating between the URLs. */
export async function sequential(urls: string[], path: string, key: string, n: number): Promise<Array<{ status: number; ms: number }>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out: Array<{ status: number; ms: number }> = [];
  try {
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(urls[i % urls.length] + path, { agent, headers: { 'x-api-key': key } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      });
      out.push({ status, ms: performance.now() - started });
    }
  } finally {
    agent.destroy();
  }
  return out;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
