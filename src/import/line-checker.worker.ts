/**
 * The worker thread of `checkLinesInWorker`: checks chunks of import lines (pure, no database)
 * and answers each chunk with its CheckedLine list as JSON (one string crosses the thread
 * boundary faster than a graph of objects).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { checkImportLine } from './import-line.ts';

const countries = buildCountryCatalogue(workerData.countryCodes as string[]);

parentPort!.on('message', (chunk: { id: number; firstLineNo: number; lines: string[] }) => {
  const checked = chunk.lines.map((line, i) => checkImportLine(line, chunk.firstLineNo + i, countries));
  parentPort!.postMessage({ id: chunk.id, json: JSON.stringify(checked) });
});
