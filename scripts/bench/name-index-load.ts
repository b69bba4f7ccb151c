// `node --import tsx scripts/bench/name-index-load.ts --db URL`: how long the in-memory index of
// names (src/search/visible-names.ts) takes to load, and what it holds (issue 28). Migrates first.
import { parseArgs } from 'node:util';
import { openEngine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { VisibleNamesKeeper } from '../../src/search/visible-names-keeper.ts';

const { values: args } = parseArgs({ options: { db: { type: 'string' } } });
const engine = openEngine(args.db!);
await migrateToLatest(engine);
const mb = (n: number) => (n / 2 ** 20).toFixed(1);
global.gc?.();
const before = process.memoryUsage();
const cpu0 = process.cpuUsage();
const keeper = new VisibleNamesKeeper(engine.db, engine.seam);
keeper.start();
await keeper.loaded();
const cpu = process.cpuUsage(cpu0);
global.gc?.();
const after = process.memoryUsage();
const status = keeper.status();
console.log(
  JSON.stringify({
    state: status.state,
    companies: status.companies,
    indexMB: mb(status.bytes),
    loadMs: Math.round(status.loadMs ?? 0),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    heapGrowthMB: mb(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers),
    rssMB: mb(after.rss),
  }),
);
await engine.close();
