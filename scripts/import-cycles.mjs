// Import cycles among the TypeScript files under a folder (src/ unless named), type-only imports
// counted: `node scripts/import-cycles.mjs [dir]` prints each cycle's edges and exits 1 when
// there is one. Tests (*.test.ts) are left out. Tarjan's strongly connected components over the
// relative `import` and `export … from` declarations, read with the TypeScript parser.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** Whether a declaration brings in types only (`import type`, `export type … from`, or every name marked `type`). */
function typeOnly(statement) {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** The import graph: file → (imported file → whether every import of it is type-only). */
export function importGraph(dir) {
  const files = sourceFiles(resolve(dir));
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const edges = new Map();
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement) || (ts.isExportDeclaration(statement) && statement.moduleSpecifier);
      if (!isImport || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.moduleSpecifier.text.startsWith('.')) continue;
      const target = resolve(dirname(file), statement.moduleSpecifier.text);
      if (known.has(target)) edges.set(target, (edges.get(target) ?? true) && typeOnly(statement));
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Every cycle, as the edges inside one strongly connected component: `{ from, to, typeOnly }`, paths relative to `dir`. */
export function importCycles(dir) {
  const graph = importGraph(dir);
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v).keys()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  const root = resolve(dir);
  return components.map((component) => {
    const members = new Set(component);
    return component
      .sort()
      .flatMap((from) =>
        [...graph.get(from)].filter(([to]) => members.has(to)).map(([to, only]) => ({ from: relative(root, from), to: relative(root, to), typeOnly: only })),
      );
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'src';
  const cycles = importCycles(dir);
  for (const edges of cycles) {
    console.log(`cycle:`);
    for (const e of edges) console.log(`  ${e.from} -> ${e.to}${e.typeOnly ? '  (type-only)' : ''}`);
  }
  console.log(`${cycles.length} cycle(s) among the files under ${dir}`);
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
