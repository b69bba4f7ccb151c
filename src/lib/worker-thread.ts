/**
 * A worker thread of ours, from the module next to its caller. The built program runs
 * dist/bundle/*.js, where each worker is an entry of its own (scripts/bundle.mjs); under tsx
 * (tests, scripts) the sources are .ts, and a worker thread does not inherit tsx's loader: it
 * registers it first.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Starts `./<name>.js` (built) or `./<name>.ts` (tsx) beside the module whose `import.meta.url` is `callerUrl`. */
export function startWorkerThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL(`./${name}.ts`, callerUrl).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(source)}))`;
  return new Worker(boot, { ...options, eval: true });
}
