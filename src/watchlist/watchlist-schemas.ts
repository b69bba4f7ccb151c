/**
 * The watchlist's and the event feed's answers (D31) as named TypeBox schemas: Fastify
 * serialises with them and the OpenAPI document lists them under components.schemas.
 */
import { Type, type TSchema } from 'typebox';
import { stringEnum } from '../lib/string-enum.ts';

const DATETIME_DESCRIPTION = 'Turkey time (UTC+3), `YYYY-MM-DD HH:MM:SS` (D4)';
// OpenAPI 3.0's nullable enum: null must be among the values too.
const ThreatOrNull = Type.Unsafe<'normal' | 'high' | null>({
  type: 'string',
  enum: ['normal', 'high', null],
  nullable: true,
  description: '`normal` or `high` (spec 3.2); `null` when a search does not return the company (no visible report)',
});

const ENTRY_EXAMPLE = { country: 'TR', tax_id: '4540536920', added_at: '2026-11-27 09:15:02' };

export const WatchEntrySchema = Type.Object(
  {
    country: Type.String({ description: '2-letter country code' }),
    tax_id: Type.String({ description: 'The tax ID in its canonical form (D9): compact, no country prefix' }),
    added_at: Type.String({ description: DATETIME_DESCRIPTION }),
  },
  {
    $id: 'WatchEntry',
    description: 'A company on the watchlist. Nothing about its records: run a search (counted) to see them',
    example: ENTRY_EXAMPLE,
    additionalProperties: false,
  },
);

export const WatchResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    added: Type.Boolean({ description: '`true` when this call added it, `false` when it was on the list already' }),
    watch: Type.Ref('WatchEntry'),
  },
  {
    $id: 'WatchResponse',
    description: 'The company is on the watchlist',
    example: { success: true, added: true, watch: ENTRY_EXAMPLE },
    additionalProperties: false,
  },
);

export const WatchlistResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    watch_count: Type.Integer({ description: 'Companies on the whole watchlist' }),
    cap: Type.Integer({ description: 'Companies the member may watch (D31; 500 unless the association set another)' }),
    watches: Type.Array(Type.Ref('WatchEntry'), { description: 'By country, then tax ID' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Send as `after` for the next page; `null` on the last page' }),
  },
  {
    $id: 'WatchlistResponse',
    description: 'One page of the watchlist',
    example: { success: true, watch_count: 1, cap: 500, watches: [ENTRY_EXAMPLE], next_cursor: null },
    additionalProperties: false,
  },
);

const EVENT_EXAMPLE = {
  id: 'evt_1042',
  type: 'company.changed',
  country: 'TR',
  tax_id: '4540536920',
  threat_level: { before: null, after: 'normal' },
  report_count: { before: 0, after: 3 },
  kinds: ['report_published'],
  occurred_at: '2026-11-27 10:02:45',
};

export const CompanyChangedEventSchema = Type.Object(
  {
    id: Type.String({ description: 'Stable id of the event; the `webhook-id` of its deliveries (D32)' }),
    type: Type.Literal('company.changed'),
    country: Type.String(),
    tax_id: Type.String({ description: 'Canonical tax ID, as on the watchlist' }),
    threat_level: Type.Object({ before: ThreatOrNull, after: ThreatOrNull }, { additionalProperties: false }),
    report_count: Type.Object(
      { before: Type.Integer({ description: 'Visible reports before (0 when none)' }), after: Type.Integer() },
      { additionalProperties: false },
    ),
    kinds: Type.Array(stringEnum(['report_published', 'report_removed', 'report_disputed', 'dispute_closed']), {
      description: 'What changed: a report became visible, stopped being visible, was disputed, or its dispute closed',
    }),
    occurred_at: Type.String({ description: DATETIME_DESCRIPTION }),
  },
  {
    $id: 'CompanyChangedEvent',
    description: "What a search answers about a watched company changed (D31). Never a report's content or who filed it: search to see them",
    example: EVENT_EXAMPLE,
    additionalProperties: false,
  },
);

export const EventsResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    events: Type.Array(Type.Ref('CompanyChangedEvent'), { description: 'Oldest first' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Send as `after` next time (also when `events` is empty); `null` only when there has never been an event and no `after` was sent',
    }),
    has_more: Type.Boolean({ description: '`true` when more events follow at once: ask again without waiting' }),
  },
  {
    $id: 'EventsResponse',
    description: 'Events of the member after the cursor, oldest first; kept 30 days',
    example: { success: true, events: [EVENT_EXAMPLE], next_cursor: 'YzE6MTA0Mg', has_more: false },
    additionalProperties: false,
  },
);

export const WATCH_SCHEMAS: TSchema[] = [WatchEntrySchema, WatchResponseSchema, WatchlistResponseSchema, CompanyChangedEventSchema, EventsResponseSchema];
