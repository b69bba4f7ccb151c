// `npm test`: every *.test.ts under src/ (fast unit tests), test/ (HTTP, storage, CLI) and clients/,
// with Node's own runner. The storage and HTTP suites run once per engine: SQLite always,
// PostgreSQL too when TEST_DATABASE_URL is set (CI sets it).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

// clients/: the typed client's tests run against a real server too.
const files = [...find('src'), ...find('test'), ...find('clients')].sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...process.argv.slice(2), ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
