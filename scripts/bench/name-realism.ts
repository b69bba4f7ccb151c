// `node --import tsx scripts/bench/name-realism.ts --reference FILE [--seeds 5]`: compares the
// names `risklookup generate` makes with a list of real Turkish company titles (one a line), on
// samples of the same size: words per name, how often words repeat, and how common the trigrams
// of each name's most distinctive word are (what makes a fresh name search cheap or dear).
// docs/benchmarks.md says which reference was used and what came out.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateCompanyLines } from '../../src/generate/generate.ts';
import { toCoreKey } from '../../src/companies/name-key.ts';
import { trigramsOf } from '../../src/search/name-sample.ts';

const { values: args } = parseArgs({ options: { reference: { type: 'string' }, seeds: { type: 'string', default: '5' } } });
if (!args.reference) throw new Error('--reference FILE (one company title a line) is required');

/** Figures of one sample of names (as `name_core` words: legal forms and fillers dropped). */
export function nameFigures(names: readonly string[]) {
  const cores = names.map((n) => toCoreKey(n).split(' ').filter(Boolean));
  const wordCount = new Map<string, number>();
  const trigramNames = new Map<string, number>();
  for (const words of cores) {
    for (const w of words) wordCount.set(w, (wordCount.get(w) ?? 0) + 1);
    for (const t of new Set(words.flatMap(trigramsOf))) trigramNames.set(t, (trigramNames.get(t) ?? 0) + 1);
  }
  const occurrences = cores.reduce((s, w) => s + w.length, 0);
  const top10 = [...wordCount.values()].sort((a, b) => b - a).slice(0, 10);
  // Each name's most distinctive word (fewest names hold it; 3+ letters), and that word's rarest trigram.
  const rarestTrigramShares: number[] = [];
  let uniqueWordNames = 0;
  for (const words of cores) {
    const candidates = words.filter((w) => [...w].length >= 3);
    if (candidates.length === 0) continue;
    const word = candidates.reduce((a, b) => ((wordCount.get(b) ?? 0) < (wordCount.get(a) ?? 0) ? b : a));
    if (wordCount.get(word) === 1) uniqueWordNames++;
    const rarest = Math.min(...trigramsOf(word).map((t) => trigramNames.get(t) ?? 0));
    rarestTrigramShares.push(rarest / names.length);
  }
  rarestTrigramShares.sort((a, b) => a - b);
  const q = (p: number) => rarestTrigramShares[Math.min(rarestTrigramShares.length - 1, Math.floor(p * rarestTrigramShares.length))]!;
  const trigramShares = [...trigramNames.values()].sort((a, b) => b - a);
  return {
    wordsPerName: occurrences / cores.length,
    distinctWordShare: wordCount.size / occurrences,
    top10WordShare: top10.reduce((s, c) => s + c, 0) / occurrences,
    namesWithUniqueWord: uniqueWordNames / cores.length,
    distinctiveTrigramMedian: q(0.5),
    distinctiveTrigramP90: q(0.9),
    distinctiveTrigramAboveOnePercent: rarestTrigramShares.filter((s) => s > 0.01).length / rarestTrigramShares.length,
    top20TrigramShare: trigramShares.slice(0, 20).reduce((s, c) => s + c, 0) / cores.length / 20,
  };
}

const reference = readFileSync(args.reference, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);
const seeds = Number(args.seeds);
const generated = Array.from({ length: seeds }, (_, i) =>
  nameFigures(
    [...generateCompanyLines({ companies: reference.length, members: 10, seed: 101 + i })].map((l) => (JSON.parse(l) as { company_name: string }).company_name),
  ),
);
const ref = nameFigures(reference);
const rows: Array<[keyof typeof ref, string, number]> = [
  ['wordsPerName', 'significant words a name', 2],
  ['distinctWordShare', 'distinct words / word occurrences', 3],
  ['top10WordShare', 'share of occurrences: the 10 commonest words', 3],
  ['namesWithUniqueWord', 'names holding a word no other name of the sample holds', 3],
  ['distinctiveTrigramMedian', "names holding the rarest trigram of a name's most distinctive word: median share", 4],
  ['distinctiveTrigramP90', '… p90 share', 4],
  ['distinctiveTrigramAboveOnePercent', '… names for which that share is above 1 %', 3],
  ['top20TrigramShare', 'the 20 commonest trigrams: mean share of names holding one', 3],
];
console.log(`| figure (samples of ${reference.length} names) | reference | generated (${seeds} seeds: min–max) |`);
console.log('|---|---|---|');
for (const [key, label, digits] of rows) {
  const values = generated.map((g) => g[key]);
  console.log(`| ${label} | ${ref[key].toFixed(digits)} | ${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} |`);
}
