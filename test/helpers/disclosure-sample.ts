/**
 * A company's file for the disclosure (D34) as the repository will hand it over: an official
 * enforcement file (imported, no event date, upheld in a dispute with the company's statement), a
 * member's claim under an open dispute, a claim withdrawn by its member, a pending claim, and a
 * bounced cheque expired by retention. Turkish names and texts hold every letter the standard PDF
 * fonts lack (ş ğ ı İ) and the rest (ç ö ü). Used by the view, page and PDF tests and by
 * scripts/disclosure-example.ts.
 */
import { startOfTurkeyDay } from '../../src/lib/calendar-date.ts';
import type { DisclosureInput, DisclosureReportRow } from '../../src/disclosure/disclosure-view.ts';
import { DEFAULT_RETENTION } from '../../src/retention/retention-settings.ts';

export const at = (date: string, hhmm = '10:00') => startOfTurkeyDay(date) + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))) * 60_000;

export const SAMPLE_COMPANY = { name: 'Öztürk Işıklı Çağdaş Gıda Sanayi ve Ticaret A.Ş.', taxId: '4840847211', country: 'TR', city: 'İzmir' };

const row = (r: Partial<DisclosureReportRow> & Pick<DisclosureReportRow, 'id' | 'type' | 'status' | 'filedAt'>): DisclosureReportRow => ({
  eventDate: null,
  amountMinor: null,
  currency: null,
  courtDecisionDate: null,
  concordatStart: null,
  concordatEnd: null,
  caseJson: null,
  description: '',
  reportedBy: null,
  expiredAt: null,
  ...r,
});

export function sampleDisclosureInput(overrides: Partial<DisclosureInput> = {}): DisclosureInput {
  return {
    company: SAMPLE_COMPANY,
    reports: [
      row({
        id: 41,
        type: 'enforcement_plain',
        status: 'approved',
        filedAt: at('2024-03-20'),
        amountMinor: 4_825_075,
        currency: 'TRY',
        caseJson: JSON.stringify({ enforcement_office: 'İzmir 4. İcra Dairesi', file_number: '2024/18273', date: '2024-03-12' }),
        description: 'İlamsız icra takibi; borçlu ödeme emrine süresinde itiraz etmedi.',
      }),
      row({
        id: 57,
        type: 'unpaid_debt',
        status: 'approved',
        filedAt: at('2025-02-03', '14:20'),
        eventDate: '2025-01-31',
        amountMinor: 1_250_000,
        currency: 'TRY',
        reportedBy: 10,
        description: 'Fatura ödenmedi: İzmir şubesine teslim edilen ürünlerin bedeli ağustos ayında çekle ödenecekti.',
      }),
      row({
        id: 58,
        type: 'unpaid_debt',
        status: 'withdrawn',
        filedAt: at('2024-11-20'),
        eventDate: '2024-11-05',
        amountMinor: 300_000,
        currency: 'EUR',
        reportedBy: 11,
      }),
      row({
        id: 60,
        type: 'unpaid_debt',
        status: 'pending',
        filedAt: at('2025-06-01', '09:05'),
        eventDate: '2025-05-02',
        amountMinor: 98_000,
        currency: 'TRY',
        reportedBy: 12,
      }),
      row({
        id: 12,
        type: 'bounced_cheque',
        status: 'expired',
        filedAt: at('2019-05-02'),
        caseJson: JSON.stringify({ prosecutor_office: 'Ankara Cumhuriyet Başsavcılığı', investigation_number: '2019/4471' }),
        expiredAt: at('2024-05-02', '03:00'),
      }),
    ],
    history: [
      { reportId: 41, from: null, to: 'approved', at: at('2024-03-20'), by: 'operator', reason: null },
      { reportId: 57, from: null, to: 'pending', at: at('2025-02-03', '14:20'), by: 'member', reason: null },
      { reportId: 57, from: 'pending', to: 'approved', at: at('2025-02-04', '11:02'), by: 'operator', reason: 'Fatura ve irsaliye incelendi.' },
      { reportId: 58, from: null, to: 'pending', at: at('2024-11-20'), by: 'member', reason: null },
      { reportId: 58, from: 'pending', to: 'approved', at: at('2024-11-21'), by: 'operator', reason: null },
      { reportId: 58, from: 'approved', to: 'withdrawn', at: at('2025-01-15'), by: 'member', reason: 'Borç ödendi.' },
      { reportId: 60, from: null, to: 'pending', at: at('2025-06-01', '09:05'), by: 'member', reason: null },
      { reportId: 12, from: null, to: 'approved', at: at('2019-05-02'), by: 'operator', reason: null },
      { reportId: 12, from: 'approved', to: 'expired', at: at('2024-05-02', '03:00'), by: 'system', reason: null },
    ],
    disputes: [
      {
        id: 2,
        state: 'decided',
        outcome: 'upheld',
        receivedOn: '2025-04-28',
        decidedAt: at('2025-05-20'),
        reportIds: [41],
        statement: 'Borç yapılandırılıyor; ödeme planı 2025 sonunda tamamlanacak.',
      },
      { id: 3, state: 'awaiting_member', outcome: null, receivedOn: '2025-06-10', decidedAt: null, reportIds: [57], statement: null },
    ],
    lookups: [
      { month: '2024-05', count: 99 },
      { month: '2024-07', count: 3 },
      { month: '2024-11', count: 12 },
      { month: '2025-02', count: 27 },
      { month: '2025-05', count: 8 },
      { month: '2025-06', count: 1250 },
    ],
    now: at('2025-06-15', '10:30'),
    retention: DEFAULT_RETENTION,
    ...overrides,
  };
}
