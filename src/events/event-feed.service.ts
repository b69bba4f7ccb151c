/** The event feed (D31): a member's events after a cursor, oldest first; and their retention (30 days). */
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, DomainError } from '../lib/errors.ts';
import type { Actor } from '../actors/actor.ts';
import type { JobLog, PeriodicJob } from '../jobs/job-types.ts';
import { every } from '../jobs/schedule.ts';
import { decodeCursor, encodeCursor, toEventView, type CompanyEventView } from './company-event.ts';
import { deleteEventsBefore, listEventsOfMember } from './events.repository.ts';

export const EVENTS_PAGE_MAX = 500;
export const EVENTS_KEPT_DAYS = 30;

export interface EventPage {
  events: CompanyEventView[];
  nextCursor: string | null;
  hasMore: boolean;
}

async function readEventPage(db: Db, memberId: number, page: { after: string | null; limit: number }): Promise<EventPage> {
  let afterId = 0;
  if (page.after !== null) {
    const decoded = decodeCursor(page.after);
    if (decoded === null) {
      throw new AppError(
        'invalid_cursor',
        'after is not a cursor of the event feed: send back next_cursor exactly as received, or leave after out to start from the oldest event kept',
      );
    }
    afterId = decoded;
  }
  const rows = await listEventsOfMember(db, memberId, afterId, page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    events: shown.map(toEventView),
    nextCursor: last ? encodeCursor(Number(last.id)) : page.after,
    hasMore: rows.length > page.limit,
  };
}

/** The event feed use case (D31), built by the composition root (src/services.ts): a key's actor reads its member's events. */
export function createEventFeed(deps: { readonly db: Db }) {
  return {
    page: (actor: Actor, page: { after: string | null; limit: number }) => {
      if (actor.kind !== 'api_key' && actor.kind !== 'member_user')
        throw new DomainError('forbidden', "only a member's keys and users read its events", { code: 'actor.not_member_user' });
      return readEventPage(deps.db, actor.memberId, page);
    },
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;

/** Deletes events older than 30 days, under the job runner (src/jobs/), every hour. */
export function eventRetentionJob(deps: { db: Db; clock: Clock; log: JobLog }): PeriodicJob {
  return {
    name: 'event-retention',
    schedule: every(3600),
    async run() {
      const deleted = await deleteEventsBefore(deps.db, deps.clock.now() - EVENTS_KEPT_DAYS * 86_400_000);
      if (deleted > 0) deps.log.info({ deleted }, 'events older than 30 days deleted');
    },
  };
}
