// Writes docs/openapi.json from the running application's route schemas (the same objects
// that validate requests), and the table of error reasons in docs/api.md from
// src/lib/error-docs.ts. `npm run docs`; tests check that both committed files are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderOpenApi } from '../test/helpers/openapi.ts';
import { replaceReasonsSection } from '../test/helpers/api-docs.ts';

const openApi = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(openApi, await renderOpenApi());
console.log(`wrote ${openApi.pathname}`);

const apiMd = new URL('../docs/api.md', import.meta.url);
writeFileSync(apiMd, replaceReasonsSection(readFileSync(apiMd, 'utf8')));
console.log(`wrote the error reasons in ${apiMd.pathname}`);
