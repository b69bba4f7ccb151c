/** The search itself (spec 4.1, D8–D10, D12–D13): rows in, the response model out. */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { DialectSeam } from '../db/dialect-seam.ts';
import { AppError } from '../lib/errors.ts';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import { toReportView, type ReportView } from '../reports/report-view.ts';
import { listActiveReportFacts, listActiveReports, type SearchReportRow } from '../reports/reports.repository.ts';
import type { Db } from '../db/types.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import type { ReportType } from '../reports/report-types.ts';
import { threatLevelOf, visibleReports, type ThreatLevel } from '../reports/visibility.ts';
import { findCompaniesByName, findCompaniesByTaxId, findCompaniesByTaxIds, NAME_SEARCH_TUNING, type CompanyRow } from '../companies/companies.repository.ts';
import type { NameSample } from './name-sample.ts';
import type { NameVocabulary } from './name-vocabulary.ts';
import type { VisibleNamesKeeper } from './visible-names-keeper.ts';
import { findShownRows, reportsReadWith } from './shown-rows.repository.ts';
import { rankMatches } from './name-rank-order.ts';
import { parseNameQuery } from '../companies/name-key.ts';
import {
  correctedGroup,
  DEFAULT_NEAR_MATCH_THRESHOLD,
  editBudget,
  LOST_LETTER,
  nearMatchGroups,
  nearQueryWords,
  nearMatchScorer,
  shownSimilarity,
  type NearMatchGroup,
} from './near-match-score.ts';
import {
  CandidateChanged,
  databaseLookups,
  memoryLookups,
  NotInMemory,
  withCandidatesFromMemory,
  type NearMatchCandidate,
  type NearMatchLookups,
} from './near-match-lookups.ts';
import { checkTaxId, taxIdCandidates } from '../companies/tax-id.ts';

export interface SearchInput {
  q: string;
  type: 'name' | 'tax_id';
  country: string | null;
}

export interface CompanyResult {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  threat_level: ThreatLevel;
  report_count: number;
  last_updated: string;
  reports: ReportView[];
}

/** A company close to a name query that matched nothing (D25): no reports, only who it is. */
export interface NearMatch {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  threat_level: ThreatLevel;
  report_count: number;
  /** 0–1, two decimals, below 1 (near-match-score.ts). */
  similarity: number;
}

export interface SearchOutcome {
  results: CompanyResult[];
  truncated: boolean;
  /** Name searches: `[]` when there are results or nothing is close. Tax-ID searches: null. */
  nearMatches: NearMatch[] | null;
  /** The ids of the companies in `results`, for the disclosure's lookup counts (D34); never in an answer. */
  foundCompanyIds?: readonly number[];
}

export interface SearchDeps {
  db: Db;
  seam: DialectSeam;
  maxResults: number;
  /**
   * Estimates that plan a name search (see name-sample.ts): the rarest trigram of each word to
   * look up, and how many names match; null = plan without.
   */
  names: NameSample | null;
  /** Near matches scoring below this are not shown (D25); DEFAULT_NEAR_MATCH_THRESHOLD when absent. */
  nearMatchThreshold?: number;
  /**
   * The names' words (name-vocabulary.ts): near matches look up only the one-edit variants it
   * may hold, and correct a word of up to 8 letters from its variants alone; absent: by pieces.
   */
  vocabulary?: NameVocabulary | null;
  /**
   * The searchable names in memory (visible-names.ts): a name search's candidates come from it
   * when it is current and they are few; absent or null: from the database.
   */
  visibleNames?: VisibleNamesKeeper | null;
  /** The data version, when read since the request arrived (the cache's): the index of names reads it no more. */
  dataVersion?: number;
  /**
   * Near matches' candidates from the index of names, where the names' words are not in memory
   * (SQLite's default), once it holds this many names; NEAR_CANDIDATES_FROM_INDEX_AT when absent.
   */
  nearCandidatesFromIndexAt?: number;
}

/**
 * Where the names' words are not in memory (SQLite's default; PostgreSQL's while they are built),
 * near matches' candidates come from the index of names once it holds this many
 * (withCandidatesFromMemory). On SQLite it looks up the substring index's rare trigrams as that
 * index does, and a trigram has many more holders in memory than a piece, while the statement's
 * cost grows with the data: server CPU a fresh request, memory's ÷ the statement's, was 0.83–1.41
 * at 453,476 names (10^6 companies: whole names, other legal forms, two words, misspelt names),
 * 0.60–0.90 at 1,360,961 (3 × 10^6) and 0.66–0.92 at 4,537,846 (10^7; whole names, other legal
 * forms, misspelt names): docs/benchmarks.md. PostgreSQL's case was not measured.
 */
export const NEAR_CANDIDATES_FROM_INDEX_AT = 1_000_000;

/** A search checked and ready to run: everything that can make it a 400 has been decided. */
export type SearchPlan =
  | { kind: 'tax_id'; candidates: Array<{ taxId: string; country: string | null }> }
  | { kind: 'name'; indexedWords: string[]; otherWords: string[]; core: string; country: string | null; nearWords: string[] };

/**
 * Decides how to search, or throws the 400 for a query that cannot be answered truthfully
 * (D8 too generic, D9 mistyped ID). Pure, so a refused query costs no quota and no I/O.
 */
export function planSearch(countries: Pick<CountryCatalogue, 'get'>, input: SearchInput): SearchPlan {
  if (input.type === 'tax_id') {
    if (input.country) {
      const check = checkTaxId(input.q, countries.get(input.country)!);
      if (!check.valid) throw new AppError('invalid_tax_id', check.message, {}, check.problem);
      return { kind: 'tax_id', candidates: [{ taxId: check.canonical, country: input.country }] };
    }
    return { kind: 'tax_id', candidates: taxIdCandidates(input.q, countries.get) };
  }
  const query = parseNameQuery(input.q);
  if (!query.ok) throw new AppError('query_too_generic', query.message, {}, query.problem);
  return {
    kind: 'name',
    indexedWords: query.words.filter((w) => w.length >= 3),
    otherWords: query.words.filter((w) => w.length < 3),
    core: query.core,
    country: input.country,
    nearWords: nearQueryWords(input.q),
  };
}

async function findCandidates(deps: SearchDeps, plan: SearchPlan, limit: number): Promise<CompanyRow[]> {
  if (plan.kind === 'tax_id') return findCompaniesByTaxId(deps.db, plan.candidates, limit);
  if (deps.visibleNames) {
    const fromMemory = await namesFromMemory(deps, deps.visibleNames, plan, limit);
    if (fromMemory !== null) return fromMemory;
  }
  if (!deps.names) return findCompaniesByName(deps.db, deps.seam, { ...plan, limit });
  await deps.names.refresh(deps.db);
  const { estimatedMatches, estimatedPrefixMatches, estimatedCompanies } = deps.names;
  // A word of two letters is looked up as the trigrams that can hold it, made with every
  // character of the names (the vocabulary's, read up to now).
  const vocabulary = plan.otherWords.length > 0 ? (deps.vocabulary ?? null) : null;
  await vocabulary?.refresh(deps.db, deps.seam, deps.dataVersion);
  return findCompaniesByName(
    deps.db,
    deps.seam,
    { ...plan, limit },
    {
      ...NAME_SEARCH_TUNING,
      indexTerm: deps.names.rarest,
      wordTrigrams: deps.names.rarestTrigrams,
      estimatedMatches,
      estimatedPrefixMatches,
      estimatedCompanies,
      ...(vocabulary ? { keyCharacters: () => vocabulary.keyCharacters() } : {}),
    },
  );
}

/**
 * Matches a name search ranks in memory at most; more: the database's rank walk. Ten times the
 * database's cap (NAME_SEARCH_TUNING): a match costs the index no statement and no string
 * (name-rank-order.ts decides most rank classes without the name), where the walk of a word in
 * 2,000–20,000 names took several statements (8 % of the bench's distinctive words at 10^6).
 * The index bounds its own work besides (postings read, names checked: visible-names.ts).
 */
export const MEMORY_CANDIDATE_CAP = 20_000;

/**
 * The first `limit` matches of a name search in D8 order, ranked in memory from the index's
 * candidates, with only those rows read (by primary key): the same rows as nameSearchQuery.
 * Null when the index is not current (loading, rebuilding), the matches are more than the
 * candidate cap (a common word: the database's rank walk), or a row read no longer matches what
 * the index held (a change committed since it caught up): the database path answers then.
 * Exported for the tests that compare it with nameSearchQuery.
 */
export async function namesFromMemory(
  deps: SearchDeps,
  keeper: VisibleNamesKeeper,
  plan: Extract<SearchPlan, { kind: 'name' }>,
  limit: number,
): Promise<CompanyRow[] | null> {
  const index = await keeper.current(deps.dataVersion);
  if (!index) return null;
  const words = [...plan.indexedWords, ...plan.otherWords];
  const matches = index.matchAll(words, plan.country, MEMORY_CANDIDATE_CAP);
  if (matches === null) return null;
  const shown = rankMatches(matches, plan.core, limit);
  const ids = shown.map((m) => m.id);
  // On PostgreSQL with the shown ones' reports (runSearch's reportsByCompany then reads none).
  const rows = new Map((await findShownRows(deps.db, deps.seam, ids, ids.slice(0, deps.maxResults))).map((r) => [Number(r.id), r]));
  const answer: CompanyRow[] = [];
  for (const m of shown) {
    const row = rows.get(m.id);
    const same =
      row !== undefined &&
      Number(row.visible_report_count) === m.visibleReportCount &&
      row.name_core === m.nameCore &&
      (plan.country === null || row.country === plan.country) &&
      words.every((w) => row.name_key.includes(w));
    if (!same) return null;
    answer.push(row);
  }
  return answer;
}

/** Which of a company's active reports a search shows (D12), in the given order: the one rule both the answer and the watchers' events (D31) apply. */
function visibleOfCompany<R extends Pick<SearchReportRow, 'type' | 'status' | 'reported_by'>>(activeReports: readonly R[]): R[] {
  return visibleReports(
    activeReports.map((r) => ({
      row: r,
      type: r.type as ReportType,
      status: r.status as ReportStatus,
      reportedBy: r.reported_by === null ? null : Number(r.reported_by),
    })),
  ).map((v) => v.row);
}

function toCompanyResult(company: CompanyRow, activeReports: SearchReportRow[]): CompanyResult | null {
  const visible = visibleOfCompany(activeReports);
  const threat = threatLevelOf(visible.length);
  if (threat === null) return null;
  const lastChange = Math.max(Number(company.updated_at), ...visible.map((r) => Number(r.updated_at)));
  return {
    company_name: company.company_name,
    tax_id: company.tax_id,
    country: company.country,
    city: company.city,
    threat_level: threat,
    report_count: visible.length,
    last_updated: formatTurkeyDateTime(lastChange),
    reports: visible.map(toReportView),
  };
}

/** The companies' visible reports, by company id. */
async function reportsByCompany(deps: SearchDeps, companies: readonly CompanyRow[]): Promise<Map<number, SearchReportRow[]>> {
  // Read with the rows (PostgreSQL, from the index of names: shown-rows.repository.ts).
  const read = companies.map(reportsReadWith);
  if (read.every((r) => r !== null)) return new Map(companies.map((c, i) => [Number(c.id), read[i]!]));
  const reports = await listActiveReports(
    deps.db,
    companies.map((c) => Number(c.id)),
  );
  const byCompany = new Map<number, SearchReportRow[]>();
  for (const r of reports) {
    const list = byCompany.get(Number(r.company_id)) ?? [];
    list.push(r);
    byCompany.set(Number(r.company_id), list);
  }
  return byCompany;
}

/** What a search answers now about one company, as the watchers' events compare it (D31). */
export interface CompanyStanding {
  /** null: a search does not return the company (no visible report, or no such company). */
  readonly threatLevel: ThreatLevel | null;
  readonly reportCount: number;
  /** The visible reports' ids, ascending. */
  readonly visibleIds: readonly number[];
}

export const NO_STANDING: CompanyStanding = { threatLevel: null, reportCount: 0, visibleIds: [] };

/**
 * What a tax-ID search in the company's country would answer about each of these companies now
 * (country and normalised tax ID; an absent company: NO_STANDING), by the rules the answers
 * themselves use (visibleOfCompany, threatLevelOf). Reads through `db`, a transaction included,
 * so that a change's own uncommitted writes are seen.
 */
export async function companyStandings(db: Db, keys: ReadonlyArray<{ country: string; taxIdNorm: string }>): Promise<Map<string, CompanyStanding>> {
  const out = new Map<string, CompanyStanding>();
  const wanted = new Set(keys.map((k) => standingKey(k.country, k.taxIdNorm)));
  const ids = new Map<number, string>();
  const taxIds = [...new Set(keys.map((k) => k.taxIdNorm))];
  for (let i = 0; i < taxIds.length; i += 500) {
    for (const c of await findCompaniesByTaxIds(db, taxIds.slice(i, i + 500))) {
      const key = standingKey(c.country, c.tax_id_norm);
      if (wanted.has(key)) ids.set(Number(c.id), key);
    }
  }
  const reports = await listActiveReportFacts(db, [...ids.keys()]);
  const byCompany = new Map<number, Array<(typeof reports)[number]>>();
  for (const r of reports) {
    const list = byCompany.get(Number(r.company_id)) ?? [];
    list.push(r);
    byCompany.set(Number(r.company_id), list);
  }
  for (const key of wanted) out.set(key, NO_STANDING);
  for (const [id, key] of ids) {
    const visible = visibleOfCompany(byCompany.get(id) ?? []);
    const threatLevel = threatLevelOf(visible.length);
    out.set(
      key,
      threatLevel === null ? NO_STANDING : { threatLevel, reportCount: visible.length, visibleIds: visible.map((r) => Number(r.id)).sort((a, b) => a - b) },
    );
  }
  return out;
}

export const standingKey = (country: string, taxIdNorm: string) => `${country}:${taxIdNorm}`;

/** Finds the companies of a planned search and their visible reports (D10, D12, D13, D25). */
export async function runSearch(deps: SearchDeps, plan: SearchPlan): Promise<SearchOutcome> {
  const companies = await findCandidates(deps, plan, deps.maxResults + 1);
  const shown = companies.slice(0, deps.maxResults);
  const byCompany = await reportsByCompany(deps, shown);
  const found = shown.flatMap((c) => {
    const result = toCompanyResult(c, byCompany.get(Number(c.id)) ?? []);
    return result ? [{ id: Number(c.id), result }] : [];
  });
  const results = found.map((f) => f.result);
  const nearMatches = plan.kind === 'tax_id' ? null : results.length > 0 ? [] : await findNearMatches(deps, plan);
  return { results, truncated: companies.length > deps.maxResults, nearMatches, foundCompanyIds: found.map((f) => f.id) };
}

/** Candidates scored per near-match search: enough for any realistic query, bounded in time. */
const NEAR_MATCH_CANDIDATES = 1000;
const MAX_NEAR_MATCHES = 5;

/** Up to 5 companies close to a name query that matched nothing, best first (D25). */
async function findNearMatches(deps: SearchDeps, plan: Extract<SearchPlan, { kind: 'name' }>): Promise<NearMatch[]> {
  return (await findNearMatchesFrom(deps, plan, 'memory')) ?? (await findNearMatchesFrom(deps, plan, 'database'))!;
}

/**
 * Near matches from memory when the index of names and the names' words are current (and the
 * vocabulary, whose corrections they answer exactly, is on), or only the candidates from the
 * index when it is large (nearCandidatesFromIndexAt), else null; or from the database's
 * statements. Null too when memory cannot answer this search exactly (near-match-lookups.ts).
 * Exported for the tests that compare the two.
 */
export async function findNearMatchesFrom(
  deps: SearchDeps,
  plan: Extract<SearchPlan, { kind: 'name' }>,
  source: 'memory' | 'database',
): Promise<NearMatch[] | null> {
  const advice = deps.names ?? null;
  if (source === 'memory') {
    const memory = deps.vocabulary ? await deps.visibleNames?.currentForNearMatches(deps.dataVersion) : null;
    if (!memory) return null;
    const { index, words } = memory;
    if (!words) {
      if (index.liveCount < (deps.nearCandidatesFromIndexAt ?? NEAR_CANDIDATES_FROM_INDEX_AT)) return null;
      // The words asked of the database, the candidates of the index (the database's for a call it cannot list).
      // A candidate changed since the index caught up: the database answers the whole search.
      await deps.vocabulary?.refresh(deps.db, deps.seam, deps.dataVersion);
      const lookups = withCandidatesFromMemory(
        databaseLookups({ db: deps.db, seam: deps.seam, advice, vocabulary: deps.vocabulary ?? null, sampleLetters: deps.names?.letters ?? null }),
        { seam: deps.seam, advice, index },
      );
      try {
        return await nearMatchesFrom(deps, plan, lookups);
      } catch (error) {
        if (error instanceof CandidateChanged) return null;
        throw error;
      }
    }
    try {
      return await nearMatchesFrom(deps, plan, memoryLookups({ db: deps.db, seam: deps.seam, advice, index, words }));
    } catch (error) {
      if (error instanceof NotInMemory) return null;
      throw error;
    }
  }
  await deps.vocabulary?.refresh(deps.db, deps.seam, deps.dataVersion);
  const vocabulary = deps.vocabulary ?? null;
  const lookups = databaseLookups({ db: deps.db, seam: deps.seam, advice, vocabulary, sampleLetters: deps.names?.letters ?? null });
  // The shown ones' rows are read after their candidates (near-match-lookups.ts): a change
  // committed in between (another process's) asks again, up to 10 times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await nearMatchesFrom(deps, plan, lookups);
    } catch (error) {
      if (!(error instanceof CandidateChanged) || attempt === 10) throw error;
    }
  }
}

async function nearMatchesFrom(deps: SearchDeps, plan: Extract<SearchPlan, { kind: 'name' }>, lookups: NearMatchLookups): Promise<NearMatch[]> {
  const { groups, piecesToo } = await nearMatchCandidateGroups(deps, lookups, plan.nearWords);
  let scored = await scoreCandidates(deps, lookups, plan, groups);
  // Corrections one edit away are not all there is: a word long enough for two edits, or a name
  // word with a letter no correction was made with (ł, ø, a Cyrillic one), is found by pieces.
  // Only when the corrections did not fill the list (a company that is not shown, a word left
  // from a renamed company, cannot hide anything that way).
  if (piecesToo && scored.length < MAX_NEAR_MATCHES) {
    const more = await scoreCandidates(deps, lookups, plan, await piecesToo());
    const seen = new Set(scored.map((c) => Number(c.company.id)));
    scored = [...scored, ...more.filter((c) => !seen.has(Number(c.company.id)))].sort(bestFirst).slice(0, MAX_NEAR_MATCHES);
  }
  const rows = await lookups.rowsOf(scored.map((s) => s.company));
  // No reports are shown: the count and threat level come from the company's visible count,
  // which every report change keeps (reports.service.ts, D12); candidates have one or more.
  return scored.map(({ score }, i) => {
    const company = rows[i]!;
    const count = Number(company.visible_report_count);
    return {
      company_name: company.company_name,
      tax_id: company.tax_id,
      country: company.country,
      city: company.city,
      threat_level: threatLevelOf(count)!,
      report_count: count,
      similarity: shownSimilarity(score),
    };
  });
}

type Candidate = NearMatchCandidate;
type Scored = { company: Candidate; score: number };

/** The groups' candidates at or above the threshold, best first, at most 5. */
async function scoreCandidates(
  deps: SearchDeps,
  lookups: NearMatchLookups,
  plan: Extract<SearchPlan, { kind: 'name' }>,
  groups: NearMatchGroup[],
): Promise<Scored[]> {
  if (groups.length === 0) return [];
  // A group of corrections that few names hold, as words: the companies holding them, from the
  // word index (SQLite), each checked for the other words. The rest: both engines ask the
  // substring index for rare trigrams (db/dialect-seam.ts).
  const byWords = groups.filter((g) => fewHoldCorrections(g, deps));
  const byPieces = groups.filter((g) => !byWords.includes(g));
  const candidates = await lookups.candidates({ byWords, byPieces, country: plan.country, limit: NEAR_MATCH_CANDIDATES });
  const threshold = deps.nearMatchThreshold ?? DEFAULT_NEAR_MATCH_THRESHOLD;
  const score = nearMatchScorer(plan.nearWords);
  return candidates
    .map((company) => ({ company, score: score(company.name_core) }))
    .filter((c): c is Scored => c.score !== null && c.score >= threshold)
    .sort(bestFirst)
    .slice(0, MAX_NEAR_MATCHES);
}

const bestFirst = (a: Scored, b: Scored) =>
  b.score - a.score || Number(b.company.visible_report_count) - Number(a.company.visible_report_count) || byName(a.company, b.company);

const byName = (a: Candidate, b: Candidate) => (a.name_core < b.name_core ? -1 : a.name_core > b.name_core ? 1 : Number(a.id) - Number(b.id));

/**
 * The substrings that near-match candidates must hold. A query word that no company name holds
 * at all is the misspelt one (D25 allows one): only its damage is looked for, next to the
 * others whole. Two such words: nothing is close. None (a typo that made another real word,
 * words run together into one that exists): any word may be the misspelt one.
 */
async function nearMatchCandidateGroups(
  deps: SearchDeps,
  lookups: NearMatchLookups,
  words: readonly string[],
): Promise<{ groups: NearMatchGroup[]; piecesToo: (() => Promise<NearMatchGroup[]>) | null }> {
  const vocabulary = deps.vocabulary ?? null;
  // With the vocabulary, corrections are made with every letter of the names' words: a word's
  // corrections are then every name word one edit from it. A word's variants that may be
  // corrections are made once a search, and only when asked for.
  const made = new Map<string, { variants: string[][]; lookedUp?: string[] }>();
  const variantsOf = (word: string) => {
    let v = made.get(word);
    if (!v) made.set(word, (v = { variants: editBudget(word) > 0 ? lookups.variants(word) : [] }));
    return v;
  };
  // Their words, looked up in the database (memory's are known already).
  const lookedUp = (word: string) => {
    if (lookups.exact) return [];
    const v = variantsOf(word);
    return (v.lookedUp ??= [...new Set(v.variants.flat())]);
  };
  // A misspelt word's corrections: the strings one edit from it whose every word is a word of
  // names (`known`, where memory does not say). The candidates are then the names holding a
  // correction and the other words whole, a few index look-ups instead of every name holding a
  // piece of the word (the whole `ozdemroglu iplik` search at 10^6, in-process: SQLite 3.6 → 1.8
  // ms, PostgreSQL 10.1 → 3.6 ms).
  const correctionsOf = (word: string, known: ReadonlySet<string>): string[][] =>
    lookups.exact ? variantsOf(word).variants : variantsOf(word).variants.filter((parts) => parts.every((p) => known.has(p)));
  const absent: Array<{ index: number; corrections: string[][] }> = [];
  for (const [index, word] of words.entries()) {
    if (word.includes(LOST_LETTER) || [...word].length < 3) continue;
    // A word in the name sample is in some name: no look-up (a common word's costs most).
    if ((deps.names?.estimatedMatches([word]) ?? 0) > 0) continue;
    // Whether any name holds it, and which of its one-edit variants are words of names: one
    // statement (each round trip to PostgreSQL cost more than its work here).
    const { present, known } = await lookups.lookUpQueryWord(word, () => lookedUp(word));
    if (!present) absent.push({ index, corrections: correctionsOf(word, known) });
  }
  if (absent.length > 1) return { groups: [], piecesToo: null };
  const misspelt = absent[0];
  const lostLetters = words.some((w) => w.includes(LOST_LETTER));
  // A misspelt word too short to leave a piece to look up leaves the other words alone (tooMany).
  const byPieces = () => nearMatchGroups(words, misspelt?.index ?? null).filter((g) => !tooMany(g, deps));
  if (misspelt && !lostLetters && editBudget(words[misspelt.index]!) > 0) {
    const corrected = correctedGroup(words, misspelt.index, misspelt.corrections);
    const groups = corrected.filter((g) => !tooMany(g, deps));
    // One edit allowed and every name word one edit away among the corrections (the
    // vocabulary's letters): the pieces can find no other name that scores.
    const exact = vocabulary !== null && editBudget(words[misspelt.index]!) === 1 && groups.length === corrected.length;
    return { groups, piecesToo: exact ? null : () => Promise.resolve(byPieces()) };
  }
  if (misspelt || lostLetters || vocabulary === null) return { groups: byPieces(), piecesToo: null };
  // Every word is in some name: any one may be the misspelt one. A word of one edit is corrected
  // from the vocabulary (the names holding a word one edit from it and the other words), the
  // others by pieces: a rare word's pieces beside a common word (`zabumet şekerleme`) led to
  // hundreds of names holding `şekerleme` and `met`.
  const known = lookups.exact ? new Set<string>() : await lookups.knownWords(words.flatMap((w) => (editBudget(w) === 1 ? lookedUp(w) : [])));
  const groups = words.flatMap((w, index) =>
    editBudget(w) === 1
      ? correctedGroup(words, index, correctionsOf(w, known)).filter((g) => !tooMany(g, deps))
      : nearMatchGroups(words, index).filter((g) => !tooMany(g, deps)),
  );
  return { groups, piecesToo: null };
}

/**
 * Names holding a group's corrections as words (the word index, SQLite) are few when the name
 * sample finds them whole in few of its names (each sampled name stands for ~200 at 10^6): then
 * those names' postings are read and each checked for the other words (~2 µs a name). A common
 * correction (`mehmet`) goes to the substring index, with the other words' rare trigrams beside it.
 */
function fewHoldCorrections(g: NearMatchGroup, deps: SearchDeps): boolean {
  if (!g.corrections || deps.seam.nearMatchWordQuery(g.corrections) === null) return false;
  const names = deps.names;
  if (!names) return true;
  let held = 0;
  for (const c of g.corrections) if ((held += names.estimatedWordMatches(c)) > NEAR_MATCH_CANDIDATES / 2) return false;
  return true;
}

/** A group with no piece of the misspelt word is worth scoring only when few names hold the others (the name sample's estimate). */
const tooMany = (g: NearMatchGroup, deps: SearchDeps) => g.any.length === 0 && (deps.names?.estimatedMatches(g.all) ?? 0) > NEAR_MATCH_CANDIDATES;
