// Writes docs/openapi.json from the running application's route schemas (the same objects
// that validate requests). `npm run docs`; a test checks the committed file is current.
import { writeFileSync } from 'node:fs';
import { renderOpenApi } from '../test/helpers/openapi.ts';

const path = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(path, await renderOpenApi());
console.log(`wrote ${path.pathname}`);
