/**
 * The demo installation `serve --demo` creates in an empty database: members in every state,
 * Turkish and foreign companies covering every report type and every visibility case of D12.
 */
import { vkn, tckn } from './valid-ids.ts';

export const DEMO_MEMBER_REF = 'DEMO';

export const DEMO_MEMBERS = [
  { ref: DEMO_MEMBER_REF, name: 'Demo Lojistik A.Ş. (demo key holder)', tier: 'full', agreementSigned: true },
  { ref: 'M-1001', name: 'Boğaziçi Nakliyat A.Ş.', tier: 'full', agreementSigned: true },
  { ref: 'M-1002', name: 'Trakya Gümrük Müşavirliği Ltd. Şti.', tier: 'full', agreementSigned: true },
  { ref: 'M-1003', name: 'Kapadokya Kargo A.Ş.', tier: 'full', agreementSigned: true },
  { ref: 'M-1004', name: 'Doğu Ekspres Taşımacılık Ltd. Şti.', tier: 'associate', agreementSigned: true },
  { ref: 'M-1005', name: 'Fırat Forwarding A.Ş.', tier: 'full', agreementSigned: false },
] as const;

const judgment = (ref: string, filedAt: string, office: string, file: string, amount: number) => ({
  ref,
  type: 'enforcement_judgment',
  status: 'approved',
  filed_at: filedAt,
  description: 'İlamlı icra takibi; alacak mahkeme kararıyla kesinleşmiş, tahsil edilemedi.',
  amount,
  currency: 'TRY',
  court_decision_date: filedAt.slice(0, 10),
  case: { enforcement_office: office, file_number: file, date: filedAt.slice(0, 10) },
});
const claim = (ref: string, by: string, filedAt: string, amount: number, status = 'approved') => ({
  ref,
  type: 'unpaid_debt',
  status,
  filed_at: filedAt,
  reported_by: by,
  description: 'Vadesi geçmiş navlun faturası ödenmedi.',
  amount,
  currency: 'TRY',
});
const bill = (ref: string, filedAt: string, office: string, file: string, amount: number) => ({
  ref,
  type: 'enforcement_bill',
  status: 'approved',
  filed_at: filedAt,
  description: 'Karşılıksız çek / senet nedeniyle kambiyo senetlerine dayalı takip.',
  amount,
  currency: 'TRY',
  case: { enforcement_office: office, file_number: file, date: filedAt.slice(0, 10) },
});
const cheque = (ref: string, filedAt: string, amount: number) => ({
  ref,
  type: 'bounced_cheque',
  status: 'approved',
  filed_at: filedAt,
  description: 'Karşılıksız çek nedeniyle Cumhuriyet Başsavcılığına şikâyet.',
  amount,
  currency: 'TRY',
  case: { prosecutor_office: 'İstanbul Cumhuriyet Başsavcılığı', investigation_number: `${filedAt.slice(0, 4)}/48213` },
});
const assigned = (ref: string, filedAt: string, amount: number) => ({
  ref,
  type: 'debt_assigned',
  status: 'approved',
  filed_at: filedAt,
  description: 'Alacak varlık yönetim şirketine temlik edildi.',
  amount,
  currency: 'TRY',
  case: { collection_company: 'Anadolu Varlık Yönetim A.Ş.', contract_number: `TML-${ref}`, assignment_date: filedAt.slice(0, 10) },
});
const plain = (ref: string, filedAt: string, office: string, file: string) => ({
  ref,
  type: 'enforcement_plain',
  status: 'approved',
  filed_at: filedAt,
  description: 'İlamsız icra takibi.',
  case: { enforcement_office: office, file_number: file, date: filedAt.slice(0, 10) },
});

/** D24 lines, one company each. */
export function demoCompanies() {
  return [
    {
      company_name: 'Anadolu Demir Çelik Sanayi ve Ticaret A.Ş.',
      tax_id: vkn('068012345'),
      country: 'TR',
      city: 'İstanbul',
      reports: [judgment('D-1', '2025-03-14 10:30:00', 'İstanbul 12. İcra Dairesi', '2025/1843', 184500), cheque('D-2', '2025-09-02 15:10:00', 72000.5)],
    },
    {
      company_name: 'Karadeniz Lojistik Taşımacılık Ltd. Şti.',
      tax_id: vkn('512044871'),
      country: 'TR',
      city: 'Samsun',
      // Three claims from three members: consensus 3 ≥ 2.5, all visible.
      reports: [
        claim('D-3', 'M-1001', '2025-11-04 09:00:00', 48250),
        claim('D-4', 'M-1002', '2026-01-19 11:45:00', 12800),
        claim('D-5', 'M-1003', '2026-02-07 16:20:00', 9400.75),
      ],
    },
    {
      company_name: 'Ege Tekstil İthalat İhracat Ltd. Şti.',
      tax_id: vkn('320117552'),
      country: 'TR',
      city: 'İzmir',
      // Two claims: consensus 2 < 2.5, hidden; the company is not returned.
      reports: [claim('D-6', 'M-1001', '2026-03-01 10:00:00', 5600), claim('D-7', 'M-1002', '2026-03-05 10:00:00', 7300)],
    },
    {
      company_name: 'Öztürk Gıda Pazarlama A.Ş.',
      tax_id: vkn('680213904'),
      country: 'TR',
      city: 'Ankara',
      // Three claims from one member count once: hidden.
      reports: [
        claim('D-8', 'M-1003', '2026-01-10 10:00:00', 1000),
        claim('D-9', 'M-1003', '2026-02-10 10:00:00', 2000),
        claim('D-10', 'M-1003', '2026-03-10 10:00:00', 3000),
      ],
    },
    {
      company_name: 'Yıldız İnşaat Taahhüt A.Ş.',
      tax_id: vkn('990311227'),
      country: 'TR',
      city: 'Ankara',
      // One official file lifts a single claim: both visible.
      reports: [plain('D-11', '2025-12-15 14:00:00', 'Ankara 4. İcra Dairesi', '2025/22871'), claim('D-12', 'M-1002', '2026-04-21 09:30:00', 23150)],
    },
    {
      company_name: 'Marmara Nakliyat ve Ticaret Ltd. Şti.',
      tax_id: vkn('610455813'),
      country: 'TR',
      city: 'Kocaeli',
      // Six visible reports: threat level high.
      reports: [
        bill('D-13', '2024-06-03 10:00:00', 'Kocaeli 2. İcra Dairesi', '2024/5521', 31000),
        bill('D-14', '2024-11-20 10:00:00', 'Gebze 1. İcra Dairesi', '2024/9910', 45500),
        assigned('D-15', '2025-02-11 10:00:00', 87000),
        judgment('D-16', '2025-05-30 10:00:00', 'Kocaeli 5. İcra Dairesi', '2025/3377', 129000),
        cheque('D-17', '2025-08-08 10:00:00', 15000),
        plain('D-18', '2026-01-05 10:00:00', 'İzmit 3. İcra Dairesi', '2026/101'),
      ],
    },
    {
      company_name: 'Marmara Gemi Acenteliği Ltd. Şti.',
      tax_id: vkn('610455999'),
      country: 'TR',
      city: 'İstanbul',
      // Five visible reports: still normal.
      reports: [
        bill('D-19', '2025-01-03 10:00:00', 'İstanbul 7. İcra Dairesi', '2025/101', 5000),
        bill('D-20', '2025-02-03 10:00:00', 'İstanbul 7. İcra Dairesi', '2025/202', 6000),
        bill('D-21', '2025-03-03 10:00:00', 'İstanbul 7. İcra Dairesi', '2025/303', 7000),
        cheque('D-22', '2025-04-03 10:00:00', 8000),
        assigned('D-23', '2025-05-03 10:00:00', 9000),
      ],
    },
    {
      company_name: 'Çukurova Tarım Ürünleri A.Ş.',
      tax_id: vkn('140622781'),
      country: 'TR',
      city: 'Adana',
      // Legacy member reports: visible when active, no consensus needed.
      reports: [
        {
          ref: 'D-24',
          type: 'concordat',
          status: 'approved',
          filed_at: '2023-04-12 09:00:00',
          reported_by: 'M-1001',
          description: 'Konkordato mühleti verildi.',
          concordat_start: '2023-04-10',
          concordat_end: '2024-04-10',
        },
        {
          ref: 'D-25',
          type: 'court_decision',
          status: 'approved',
          filed_at: '2023-10-02 09:00:00',
          reported_by: 'M-1002',
          description: 'Tahsil edilemeyen mahkeme kararı.',
          court_decision_date: '2023-09-28',
          amount: 56000,
          currency: 'TRY',
        },
      ],
    },
    {
      company_name: 'Akdeniz Turizm Otelcilik A.Ş.',
      tax_id: vkn('070399218'),
      country: 'TR',
      city: 'Antalya',
      // Pending and rejected reports are never shown: not returned.
      reports: [
        { ...bill('D-26', '2026-05-02 10:00:00', 'Antalya 1. İcra Dairesi', '2026/77', 12000), status: 'pending' },
        { ...cheque('D-27', '2026-05-03 10:00:00', 4000), status: 'rejected' },
      ],
    },
    {
      company_name: 'İstanbul Ambalaj San. Tic. Ltd. Şti.',
      tax_id: vkn('480577103'),
      country: 'TR',
      city: 'İstanbul',
      // The third claim was withdrawn (paid): back under the threshold, hidden.
      reports: [
        claim('D-28', 'M-1001', '2026-02-01 10:00:00', 3300),
        claim('D-29', 'M-1002', '2026-02-02 10:00:00', 4100),
        claim('D-30', 'M-1003', '2026-02-03 10:00:00', 2900, 'withdrawn'),
      ],
    },
    {
      company_name: 'Şahin Oto Yedek Parça - Mehmet Şahin',
      tax_id: tckn('284519376'),
      country: 'TR',
      city: 'Bursa',
      reports: [assigned('D-31', '2025-07-19 13:00:00', 18250)],
    },
    {
      company_name: 'Demir Lojistik A.Ş.',
      tax_id: vkn('270144650'),
      country: 'TR',
      city: 'Mersin',
      reports: [cheque('D-32', '2026-06-11 11:00:00', 26000)],
    },
    {
      company_name: 'Özdemir Soğuk Zincir Taşımacılık Ltd. Şti.',
      tax_id: vkn('270144777'),
      country: 'TR',
      city: 'Konya',
      reports: [plain('D-33', '2026-07-01 11:00:00', 'Konya 2. İcra Dairesi', '2026/4411')],
    },
    {
      company_name: 'Müller Spedition GmbH',
      tax_id: 'DE136695976',
      country: 'DE',
      city: 'Duisburg',
      reports: [
        {
          ...bill('D-34', '2025-10-10 10:00:00', 'Amtsgericht Duisburg', '12 M 4471/25', 9800),
          currency: 'EUR',
          description: 'Zwangsvollstreckung aus Wechsel; uneinbringlich.',
        },
      ],
    },
    {
      company_name: 'Rossi Trasporti S.r.l.',
      tax_id: 'IT00743110157',
      country: 'IT',
      city: 'Milano',
      reports: [
        claim('D-35', 'M-1001', '2026-03-15 10:00:00', 4200),
        { ...judgment('D-36', '2025-12-01 10:00:00', 'Tribunale di Milano', 'RGE 1123/2025', 15500), currency: 'EUR' },
      ],
    },
  ];
}
