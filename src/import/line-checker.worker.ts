/**
 * The worker thread of `checkLinesInWorker`: checks chunks of import lines (pure, no database)
 * and answers each chunk with its CheckedLine list (structured clone: 2×10^5 companies in
 * 11.7 s, against 12.1 s sent as JSON text).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { checkImportLine } from './import-line.ts';

const countries = buildCountryCatalogue((workerData as { countryCodes: string[] }).countryCodes);

parentPort!.on('message', (chunk: { id: number; firstLineNo: number; lines: string[] }) => {
  const checked = chunk.lines.map((line, i) => checkImportLine(line, chunk.firstLineNo + i, countries));
  parentPort!.postMessage({ id: chunk.id, lines: checked });
});
