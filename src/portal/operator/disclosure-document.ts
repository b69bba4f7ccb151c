/**
 * The disclosure (D34) in words, in one language: every label and value as the reader will read
 * it, so that the console page (disclosure.page.ts) and the PDF (disclosure.pdf.ts) lay out the
 * same document and choose no words of their own. Pure: from the view model, plain text (the
 * html tag escapes it on the page).
 */
import type { DisclosureReport, DisclosureView, HeldStatus } from '../../disclosure/disclosure-view.ts';
import { NOT_SUPPORTED_REASON } from '../../disputes/dispute-effects.ts';
import { t, type MessageKey } from '../messages/index.ts';
import type { Locale } from '../portal-context.ts';

export interface WordedFact {
  readonly label: string;
  readonly value: string;
}

export interface WordedReport {
  readonly id: number;
  readonly heading: string;
  readonly facts: readonly WordedFact[];
  /** Free text: the description (shown apart, it may run long). */
  readonly description: WordedFact | null;
  readonly history: { readonly heading: string; readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] };
  readonly disputes: readonly { readonly heading: string; readonly facts: readonly WordedFact[] }[];
}

export interface WordedDisclosure {
  readonly locale: Locale;
  readonly service: string;
  readonly title: string;
  readonly printed: string;
  readonly intro: string;
  readonly company: readonly WordedFact[];
  readonly summary: string;
  /** When nothing is held. */
  readonly none: string | null;
  readonly reports: readonly WordedReport[];
  readonly lookups: {
    readonly heading: string;
    readonly note: string;
    readonly columns: readonly [string, string];
    readonly rows: readonly (readonly [string, string])[];
    readonly total: readonly [string, string];
  };
}

const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en-GB', tr: 'tr-TR' };

export function wordDisclosure(view: DisclosureView, locale: Locale): WordedDisclosure {
  const tr = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => t(locale, key, values);
  const count = new Intl.NumberFormat(LANGUAGE_TAGS[locale]);
  const month = new Intl.DateTimeFormat(LANGUAGE_TAGS[locale], { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return {
    locale,
    service: tr('disclosure.service'),
    title: tr('disclosure.title', { name: view.company.name }),
    printed: tr('disclosure.printed', { at: view.printedAt }),
    intro: tr('disclosure.intro'),
    company: [
      { label: tr('disclosure.company.name'), value: view.company.name },
      { label: tr('disclosure.company.taxId'), value: view.company.taxId },
      { label: tr('disclosure.company.country'), value: view.company.country },
      { label: tr('disclosure.company.city'), value: view.company.city },
    ],
    summary: tr('disclosure.summary', { count: view.reports.length, shown: view.shownCount }),
    none: view.reports.length === 0 ? tr('disclosure.none') : null,
    reports: view.reports.map((r) => wordReport(r, locale)),
    lookups: {
      heading: tr('disclosure.lookups'),
      note: tr('disclosure.lookups.note'),
      columns: [tr('disclosure.lookups.month'), tr('disclosure.lookups.count')],
      rows: view.lookups.map((l) => [month.format(new Date(`${l.month}-01T00:00:00Z`)), count.format(l.count)] as const),
      total: [tr('disclosure.lookups.total'), count.format(view.lookupsTotal)],
    },
  };
}

function statusWord(locale: Locale, status: HeldStatus): string {
  return t(locale, `reports.status.${status}`);
}

type Words = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string;

function wordsOf(locale: Locale): { tr: Words; fact: (key: MessageKey, value: string | null) => WordedFact[] } {
  const tr: Words = (key, values) => t(locale, key, values);
  return { tr, fact: (key, value) => (value === null ? [] : [{ label: tr(key), value }]) };
}

function reportFacts(r: DisclosureReport, locale: Locale): WordedFact[] {
  const { tr, fact } = wordsOf(locale);
  const yesNo = (value: boolean) => tr(value ? 'disclosure.yes' : 'disclosure.no');
  const money = new Intl.NumberFormat(LANGUAGE_TAGS[locale], { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const { anchor, endsOn, deleteOn } = r.retention;
  return [
    ...fact('disclosure.report.status', statusWord(locale, r.status)),
    ...fact('disclosure.report.shown', yesNo(r.shown)),
    ...fact('disclosure.report.disputed', yesNo(r.disputed)),
    ...fact('disclosure.report.source', tr(`disclosure.source.${r.source}`)),
    ...fact('disclosure.report.filed', r.filedOn),
    ...fact('disclosure.report.eventDate', r.eventDate),
    ...fact('disclosure.report.amount', r.amount && `${money.format(r.amount.minor / 100)} ${r.amount.currency}`),
    ...fact('disclosure.report.courtDecisionDate', r.courtDecisionDate),
    ...fact(
      'disclosure.report.concordat',
      r.concordat && tr('disclosure.report.concordatSpan', { start: r.concordat.start ?? '…', end: r.concordat.end ?? '…' }),
    ),
    ...r.caseFields.map((c) => ({ label: t(locale, `case.${c.field}` as MessageKey), value: c.value })),
    ...fact(
      'disclosure.report.kept',
      tr('disclosure.report.keptValue', { end: endsOn, anchor: anchor.date, source: tr(`disclosure.anchor.${anchor.source}`) }),
    ),
    ...fact('disclosure.report.deleted', deleteOn),
  ];
}

function historyRows(r: DisclosureReport, locale: Locale): string[][] {
  const { tr } = wordsOf(locale);
  return r.history.map((h) => [
    h.at,
    h.from === null
      ? tr('disclosure.history.filed', { to: statusWord(locale, h.to) })
      : tr('disclosure.history.step', { from: statusWord(locale, h.from), to: statusWord(locale, h.to) }),
    tr(`disclosure.by.${h.by}`),
    // D33's reason, written by the service itself: in the reader's language.
    h.by === 'system' && h.reason === NOT_SUPPORTED_REASON ? tr('disclosure.reason.not_supported') : (h.reason ?? ''),
  ]);
}

function wordReport(r: DisclosureReport, locale: Locale): WordedReport {
  const { tr, fact } = wordsOf(locale);
  return {
    id: r.id,
    heading: tr('disclosure.report.heading', { id: r.id, type: tr(`search.type.${r.type}`) }),
    facts: reportFacts(r, locale),
    description: r.description.trim() === '' ? null : { label: tr('disclosure.report.description'), value: r.description },
    history: {
      heading: tr('disclosure.history'),
      columns: [tr('disclosure.history.at'), tr('disclosure.history.change'), tr('disclosure.history.by'), tr('disclosure.history.reason')],
      rows: historyRows(r, locale),
    },
    disputes: r.disputes.map((d) => ({
      heading: tr('disclosure.dispute.heading', { id: d.id }),
      facts: [
        ...fact('disclosure.dispute.received', d.receivedOn),
        ...fact('disclosure.dispute.state', tr(`disputes.state.${d.state}`)),
        ...fact('disclosure.dispute.outcome', d.outcome && tr(`disputes.outcome.${d.outcome}`)),
        ...fact('disclosure.dispute.decided', d.decidedOn),
        ...fact('disclosure.dispute.statement', d.statement),
      ],
    })),
  };
}
