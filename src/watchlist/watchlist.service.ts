/**
 * The watchlist (D31): a member watches companies by country and tax ID (D9-checked), at most its
 * cap (500 unless an operator set another). Adding stores the company's baseline (what a search
 * answers now) and sends nothing; the events come from the seam (events/company-changes.ts).
 * Nothing here tells whether a company has records: an entry is a country, a tax ID and a time.
 * The same service answers the API and the portal.
 */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, DomainError } from '../lib/errors.ts';
import { requireMember } from '../members/members.service.ts';
import { appendOperatorLog, operatorIdentity } from '../operator/operator-log.ts';
import { requireStepUp, stepUpTarget } from '../operator/step-up.ts';
import type { Actor } from '../actors/actor.ts';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import { companyStandings, NO_STANDING, standingKey } from '../search/search.service.ts';
import { checkTaxId } from '../companies/tax-id.ts';
import { awaitSearchTables, lockFeedHead } from '../events/events.repository.ts';

export interface WatchlistDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly countries: Pick<CountryCatalogue, 'get'>;
  /** The server's default cap (config.watchlistCap); a member's own cap wins. */
  readonly defaultCap: number;
}

export interface WatchTarget {
  readonly country: string;
  /** D9's canonical form, as companies are stored. */
  readonly taxIdNorm: string;
}

export interface WatchEntry {
  country: string;
  tax_id: string;
  /** Turkey time (D4). */
  added_at: string;
}

/** Checks a country and tax ID as a tax-ID search would (D7's country, D9's formats and check digits); throws the 400. */
export function checkWatchTarget(countries: Pick<CountryCatalogue, 'get'>, countryRaw: string, taxIdRaw: string): WatchTarget {
  const code = countryRaw.trim().toUpperCase();
  const country = /^[A-Z]{2}$/.test(code) ? countries.get(code) : undefined;
  if (!country) {
    throw new AppError(
      'unsupported_country',
      `'${countryRaw.slice(0, 20)}' is not a supported country: use a code from GET /api/v1/countries`,
      {},
      {
        code: 'search.country_unsupported',
        params: { country: countryRaw.slice(0, 20) },
      },
    );
  }
  const check = checkTaxId(taxIdRaw, country);
  if (!check.valid) throw new AppError('invalid_tax_id', check.message, {}, check.problem);
  return { country: country.code, taxIdNorm: check.canonical };
}

async function capOf(db: Db, memberId: number, defaultCap: number): Promise<number> {
  const row = await db.selectFrom('members').select('watchlist_cap').where('id', '=', memberId).executeTakeFirst();
  return row?.watchlist_cap == null ? defaultCap : Number(row.watchlist_cap);
}

/** How many companies each member watches, by member ref (the console's member list); a member watching none is absent. */
async function countWatchesByMember(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('watchlist')
    .innerJoin('members', 'members.id', 'watchlist.member_id')
    .select((eb) => ['members.ref', eb.fn.countAll().as('n')])
    .groupBy('members.ref')
    .execute();
  return new Map(rows.map((r) => [r.ref, Number(r.n)]));
}

async function countWatches(db: Db, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('watchlist')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Adds a company to the member's watchlist; `added: false` when it was there already (the call
 * is idempotent). In one transaction behind the feed's head (events.repository.ts): the cap is
 * exact under concurrency, and the baseline is computed from committed data that no event writer
 * is changing meanwhile.
 */
async function addWatch(deps: WatchlistDeps, memberId: number, target: WatchTarget): Promise<{ added: boolean; entry: WatchEntry }> {
  return deps.db.transaction().execute(async (trx) => {
    await awaitSearchTables(trx);
    const now = deps.clock.now();
    await lockFeedHead(trx, now);
    const existing = await trx
      .selectFrom('watchlist')
      .select('created_at')
      .where('member_id', '=', memberId)
      .where('country', '=', target.country)
      .where('tax_id_norm', '=', target.taxIdNorm)
      .executeTakeFirst();
    if (existing) return { added: false, entry: entryOf(target, Number(existing.created_at)) };
    const cap = await capOf(trx, memberId, deps.defaultCap);
    if ((await countWatches(trx, memberId)) >= cap) {
      throw new AppError(
        'watchlist_full',
        `your watchlist holds ${cap} companies, its cap: remove one you no longer need, or ask the association for a higher cap`,
        {},
        { code: 'watchlist.full', params: { cap } },
      );
    }
    await trx.insertInto('watchlist').values({ member_id: memberId, country: target.country, tax_id_norm: target.taxIdNorm, created_at: now }).execute();
    const standing = (await companyStandings(trx, [target])).get(standingKey(target.country, target.taxIdNorm)) ?? NO_STANDING;
    await trx
      .insertInto('watched_companies')
      .values({
        country: target.country,
        tax_id_norm: target.taxIdNorm,
        threat_level: standing.threatLevel,
        report_count: standing.reportCount,
        visible_ids: standing.visibleIds.join(','),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['country', 'tax_id_norm']).doNothing())
      .execute();
    return { added: true, entry: entryOf(target, now) };
  });
}

/** Removes a company from the member's watchlist; false when it was not on it. The baseline goes with the last watcher. */
async function removeWatch(deps: Pick<WatchlistDeps, 'db' | 'clock'>, memberId: number, target: WatchTarget): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    await lockFeedHead(trx, deps.clock.now());
    const removed = await trx
      .deleteFrom('watchlist')
      .where('member_id', '=', memberId)
      .where('country', '=', target.country)
      .where('tax_id_norm', '=', target.taxIdNorm)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return false;
    const other = await trx
      .selectFrom('watchlist')
      .select('member_id')
      .where('country', '=', target.country)
      .where('tax_id_norm', '=', target.taxIdNorm)
      .limit(1)
      .executeTakeFirst();
    if (!other) {
      await trx.deleteFrom('watched_companies').where('country', '=', target.country).where('tax_id_norm', '=', target.taxIdNorm).execute();
    }
    return true;
  });
}

export interface WatchlistPage {
  entries: WatchEntry[];
  /** Entries on the whole list, and the cap. */
  watchCount: number;
  cap: number;
  /** Give it back as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

export const WATCHLIST_PAGE_MAX = 500;

/** The member's watchlist by country and tax ID, `limit` at a time after `after` (a cursor of a previous page). */
async function listWatches(
  deps: Pick<WatchlistDeps, 'db' | 'defaultCap'>,
  memberId: number,
  page: { after: string | null; limit: number },
): Promise<WatchlistPage> {
  const after = page.after === null ? null : decodeWatchCursor(page.after);
  let query = deps.db
    .selectFrom('watchlist')
    .select(['country', 'tax_id_norm', 'created_at'])
    .where('member_id', '=', memberId)
    .orderBy('country')
    .orderBy('tax_id_norm')
    .limit(page.limit + 1);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('country', '>', after.country), eb.and([eb('country', '=', after.country), eb('tax_id_norm', '>', after.taxIdNorm)])]),
    );
  }
  const rows = await query.execute();
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    entries: shown.map((r) => entryOf({ country: r.country, taxIdNorm: r.tax_id_norm }, Number(r.created_at))),
    watchCount: await countWatches(deps.db, memberId),
    cap: await capOf(deps.db, memberId, deps.defaultCap),
    nextCursor: rows.length > page.limit && last ? encodeWatchCursor({ country: last.country, taxIdNorm: last.tax_id_norm }) : null,
  };
}

const entryOf = (t: WatchTarget, at: number): WatchEntry => ({ country: t.country, tax_id: t.taxIdNorm, added_at: formatTurkeyDateTime(at) });

function encodeWatchCursor(t: WatchTarget): string {
  return Buffer.from(`w1:${t.country}:${t.taxIdNorm}`, 'utf8').toString('base64url');
}

function decodeWatchCursor(cursor: string): WatchTarget {
  const m = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? /^w1:([A-Z]{2}):([0-9A-Z]{1,40})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!m)
    throw new AppError(
      'invalid_cursor',
      'after is not a cursor of this list: send back next_cursor exactly as received, or leave after out for the first page',
    );
  return { country: m[1]!, taxIdNorm: m[2]! };
}

/** The highest watchlist cap an operator may set (D31). */
export const WATCHLIST_CAP_MAX = 1_000_000;

/**
 * The one reading of a watchlist cap as an operator types it (CLI `--watchlist-cap`, the console's
 * field): a whole number from 0 to WATCHLIST_CAP_MAX, or `default` (null: the server's). The
 * problem names the setting as the caller calls it and repeats the value given.
 */
export function readWatchlistCap(name: string, raw: string): { value: number | null } | { problem: string } {
  const text = raw.trim();
  if (text.toLowerCase() === 'default') return { value: null };
  if (!/^[0-9]{1,7}$/.test(text) || Number(text) > WATCHLIST_CAP_MAX) {
    return { problem: `${name} must be a whole number from 0 to ${WATCHLIST_CAP_MAX}, or default; got '${raw}'` };
  }
  return { value: Number(text) };
}

/** readWatchlistCap's refusal as the console and the service answer it (400, worded in the reader's language). */
export function watchlistCapProblem(raw: string, problem: string): DomainError {
  return new DomainError('invalid', problem, { code: 'member.watchlist_cap_range', params: { max: WATCHLIST_CAP_MAX, value: raw.slice(0, 40) } });
}

/**
 * An operator sets a member's watchlist cap (D31), or gives it back the server's default (null):
 * the operator log keeps the cap before and after. A lower cap removes nothing; the member adds
 * no more until under it. A portal operator needs the step-up confirmation, as for the member's
 * other limits (operator/step-up.ts): a raised cap is more companies followed for free.
 */
async function setWatchlistCap(
  deps: Pick<WatchlistDeps, 'db' | 'clock'>,
  operator: Actor,
  ref: string,
  cap: number | null,
): Promise<{ ref: string; watchlist_cap: number | null }> {
  if (cap !== null) {
    const read = readWatchlistCap('the watchlist cap', String(cap));
    if ('problem' in read) throw watchlistCapProblem(String(cap), read.problem);
  }
  requireStepUp(operator, 'member.watchlist_cap', stepUpTarget.member(ref));
  return deps.db.transaction().execute(async (trx) => {
    const who = await operatorIdentity(trx, operator);
    const member = await requireMember(trx, ref);
    const now = deps.clock.now();
    await trx.updateTable('members').set({ watchlist_cap: cap, updated_at: now }).where('id', '=', Number(member.id)).execute();
    await appendOperatorLog(trx, {
      at: now,
      userId: who.userId,
      actor: who.label,
      action: 'member.watchlist_cap',
      target: `member:${ref}`,
      before: { watchlist_cap: member.watchlist_cap },
      after: { watchlist_cap: cap },
    });
    return { ref, watchlist_cap: cap };
  });
}

/**
 * Which of `companies` (country and tax ID, as a search answers them) the member watches, as
 * `standingKey`s of the D9-canonical tax ID: for the portal's "Watching" mark on search results.
 * A stored tax ID that no longer passes D9 cannot be watched: no mark. Says nothing of records:
 * the companies are what the member already sees.
 */
async function watchedAmong(deps: Pick<WatchlistDeps, 'db' | 'countries'>, memberId: number, companies: ReadonlyArray<WatchRequest>): Promise<Set<string>> {
  const targets: WatchTarget[] = [];
  for (const c of companies) {
    try {
      targets.push(checkWatchTarget(deps.countries, c.country, c.taxId));
    } catch {
      // Not a valid tax ID (any more): not watchable, no mark.
    }
  }
  if (targets.length === 0) return new Set();
  const rows = await deps.db
    .selectFrom('watchlist')
    .select(['country', 'tax_id_norm'])
    .where('member_id', '=', memberId)
    .where('tax_id_norm', 'in', [...new Set(targets.map((t) => t.taxIdNorm))])
    .execute();
  const watched = new Set(rows.map((r) => standingKey(r.country, r.tax_id_norm)));
  return new Set(targets.map((t) => standingKey(t.country, t.taxIdNorm)).filter((key) => watched.has(key)));
}

/** The member that watches: a member's signed-in user (the portal) or a key of the member (the API). */
function watcherOf(actor: Actor): number {
  if (actor.kind === 'member_user' || actor.kind === 'api_key') return actor.memberId;
  throw new DomainError('forbidden', "only a member's users and keys keep its watchlist", { code: 'actor.not_member_user' });
}

/** What a watchlist form or URL names: a country and a tax ID as typed (checked as a tax-ID search checks them, D9). */
export interface WatchRequest {
  readonly country: string;
  readonly taxId: string;
}

/**
 * The watchlist use cases (D31), built by the composition root (src/services.ts), the same for
 * the API (a key's actor) and the portal (a member's user); the cap by an operator or the CLI.
 */
export function createWatchlist(deps: WatchlistDeps) {
  return {
    /** The cap of a member with none of its own (the console shows it beside each member). */
    defaultCap: deps.defaultCap,
    /** How many companies each member watches, by member ref (the console's list; operators). */
    countByMember: (actor: Actor) => {
      if (actor.kind !== 'operator' && actor.kind !== 'cli')
        throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
      return countWatchesByMember(deps.db);
    },
    add: (actor: Actor, input: WatchRequest) => {
      const memberId = watcherOf(actor);
      return addWatch(deps, memberId, checkWatchTarget(deps.countries, input.country, input.taxId));
    },
    /** `removed: false` when the company was not on the list; `target` as checked (canonical tax ID). */
    remove: async (actor: Actor, input: WatchRequest) => {
      const memberId = watcherOf(actor);
      const target = checkWatchTarget(deps.countries, input.country, input.taxId);
      return { removed: await removeWatch(deps, memberId, target), target };
    },
    list: (actor: Actor, page: { after: string | null; limit: number }) => listWatches(deps, watcherOf(actor), page),
    /** Which of these companies the member watches, as `standingKey`s of the canonical tax ID (the search page's "Watching" mark). */
    watchedAmong: async (actor: Actor, companies: ReadonlyArray<WatchRequest>) => watchedAmong(deps, watcherOf(actor), companies),
    setCap: (actor: Actor, input: { ref: string; cap: number | null }) => setWatchlistCap(deps, actor, input.ref, input.cap),
  };
}

export type Watchlist = ReturnType<typeof createWatchlist>;
