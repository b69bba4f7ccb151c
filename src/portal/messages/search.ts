/** Texts of the portal search page (D28, D25). English and Turkish, same keys. */
import { defineMessages } from './define.ts';

export const searchMessages = defineMessages({
  'search.title': {
    en: 'Search a company',
    tr: 'Firma sorgula',
  },
  'search.not_run': {
    en: 'This search came from a link on another site, so it has not been run or counted. Check it and press Search to run it.',
    tr: 'Bu sorgu başka bir sitedeki bir bağlantıdan geldiği için çalıştırılmadı ve sayılmadı. Kontrol edip çalıştırmak için Sorgula düğmesine basın.',
  },
  'search.q': {
    en: 'Company name or tax ID',
    tr: 'Firma adı veya vergi numarası',
  },
  'search.type': {
    en: 'Search by',
    tr: 'Sorgu türü',
  },
  'search.type_name': {
    en: 'Name',
    tr: 'Ad',
  },
  'search.type_tax_id': {
    en: 'Tax ID',
    tr: 'Vergi numarası',
  },
  'search.country': {
    en: 'Country',
    tr: 'Ülke',
  },
  'search.any_country': {
    en: 'Any country',
    tr: 'Tüm ülkeler',
  },
  'search.submit': {
    en: 'Search',
    tr: 'Sorgula',
  },
  'search.allowance': {
    en: '{remaining} of {limit} searches left today (resets at midnight Turkey time).',
    tr: 'Bugün {limit} sorgudan {remaining} sorgu hakkınız kaldı (Türkiye saatiyle gece yarısı yenilenir).',
  },
  'search.result_count': {
    en: '{count} companies found for “{q}”.',
    tr: '“{q}” için {count} firma bulundu.',
  },
  'search.result_one': {
    en: '1 company found for “{q}”.',
    tr: '“{q}” için 1 firma bulundu.',
  },
  'search.truncated': {
    en: 'More companies matched: narrow the search to see them.',
    tr: 'Daha fazla firma eşleşti: görmek için sorguyu daraltın.',
  },
  'search.none_name': {
    en: 'No company with risk records matches “{q}”.',
    tr: '“{q}” ile eşleşen, risk kaydı olan firma yok.',
  },
  'search.none_tax_id': {
    en: 'No risk records for tax ID {q}.',
    tr: '{q} vergi numarası için risk kaydı yok.',
  },
  'search.near_title': {
    en: 'No company matched “{q}”. Close names:',
    tr: '“{q}” ile eşleşen firma yok. Yakın adlar:',
  },
  'search.near_hint': {
    en: 'A close name may be a different company: confirm it with a tax-ID search before relying on it.',
    tr: 'Yakın bir ad başka bir firmaya ait olabilir: güvenmeden önce vergi numarasıyla sorgulayarak doğrulayın.',
  },
  'search.confirm': {
    en: 'Search by this tax ID',
    tr: 'Bu vergi numarasıyla sorgula',
  },
  'search.similarity': {
    en: 'similarity {value}',
    tr: 'benzerlik {value}',
  },
  'search.threat': {
    en: 'Threat level',
    tr: 'Risk düzeyi',
  },
  'search.threat_high': {
    en: 'High',
    tr: 'Yüksek',
  },
  'search.threat_normal': {
    en: 'Normal',
    tr: 'Normal',
  },
  'search.reports': {
    en: 'Reports',
    tr: 'Kayıtlar',
  },
  'search.last_updated': {
    en: 'Last updated',
    tr: 'Son güncelleme',
  },
  'search.tax_id': {
    en: 'Tax ID',
    tr: 'Vergi numarası',
  },
  'search.city': {
    en: 'City',
    tr: 'Şehir',
  },
  'search.report_type': {
    en: 'Type',
    tr: 'Tür',
  },
  'search.field.enforcement_office': {
    en: 'Enforcement office',
    tr: 'İcra dairesi',
  },
  'search.field.file_number': {
    en: 'File number',
    tr: 'Dosya no',
  },
  'search.field.date': {
    en: 'Date',
    tr: 'Tarih',
  },
  'search.field.prosecutor_office': {
    en: "Prosecutor's office",
    tr: 'Savcılık',
  },
  'search.field.investigation_number': {
    en: 'Investigation number',
    tr: 'Soruşturma no',
  },
  'search.field.collection_company': {
    en: 'Collection company',
    tr: 'Varlık yönetim şirketi',
  },
  'search.field.contract_number': {
    en: 'Contract number',
    tr: 'Sözleşme no',
  },
  'search.field.assignment_date': {
    en: 'Assigned on',
    tr: 'Temlik tarihi',
  },
  'search.field.court_decision_date': {
    en: 'Court decision',
    tr: 'Mahkeme kararı tarihi',
  },
  'search.field.concordat_start': {
    en: 'Concordat from',
    tr: 'Konkordato başlangıcı',
  },
  'search.field.concordat_end': {
    en: 'Concordat until',
    tr: 'Konkordato bitişi',
  },
  'search.type.enforcement_judgment': {
    en: 'Enforcement (court judgment)',
    tr: 'İlamlı icra takibi',
  },
  'search.type.enforcement_bill': {
    en: 'Enforcement (bill of exchange)',
    tr: 'Kambiyo senedine dayalı icra takibi',
  },
  'search.type.enforcement_plain': {
    en: 'Enforcement (without judgment)',
    tr: 'İlamsız icra takibi',
  },
  'search.type.bounced_cheque': {
    en: 'Bounced cheque',
    tr: 'Karşılıksız çek',
  },
  'search.type.debt_assigned': {
    en: 'Debt assigned to a collector',
    tr: 'Temlik edilen alacak',
  },
  'search.type.unpaid_debt': {
    en: 'Unpaid debt (member claim)',
    tr: 'Ödenmemiş borç (üye bildirimi)',
  },
  'search.type.concordat': {
    en: 'Concordat',
    tr: 'Konkordato',
  },
  'search.type.court_decision': {
    en: 'Court decision',
    tr: 'Mahkeme kararı',
  },
  'search.official': {
    en: 'Official record',
    tr: 'Resmî kayıt',
  },
  'search.claim': {
    en: 'Member claim',
    tr: 'Üye bildirimi',
  },
  'search.filed': {
    en: 'Filed',
    tr: 'Kayıt tarihi',
  },
  'search.amount': {
    en: 'Amount',
    tr: 'Tutar',
  },
  'search.details': {
    en: 'Details',
    tr: 'Ayrıntılar',
  },
  'search.refused': {
    en: 'This search could not be made',
    tr: 'Bu sorgu yapılamadı',
  },
  'search.reason.invalid_parameter': {
    en: 'The search is not valid: enter 3 to 100 characters and choose name or tax ID.',
    tr: 'Sorgu geçerli değil: 3 ile 100 karakter arasında girin ve ad ya da vergi numarası seçin.',
  },
  'search.reason.duplicate_parameter': {
    en: 'A search field was given twice.',
    tr: 'Bir sorgu alanı iki kez verildi.',
  },
  'search.reason.malformed_request': {
    en: 'The search could not be read.',
    tr: 'Sorgu okunamadı.',
  },
  'search.reason.query_too_generic': {
    en: 'The name is too general: add a distinctive word of the company name.',
    tr: 'Ad çok genel: firma adından ayırt edici bir kelime ekleyin.',
  },
  'search.reason.invalid_tax_id': {
    en: 'This is not a valid tax ID for the chosen country: check the digits.',
    tr: 'Bu, seçilen ülke için geçerli bir vergi numarası değil: rakamları kontrol edin.',
  },
  'search.reason.unsupported_country': {
    en: 'This country is not supported.',
    tr: 'Bu ülke desteklenmiyor.',
  },
  'search.reason.key_in_url': {
    en: 'Do not type an API key into the search: regenerate the key if it was exposed.',
    tr: 'Sorguya API anahtarı yazmayın: açığa çıktıysa anahtarı yenileyin.',
  },
  'search.member_allowance': {
    en: 'Your member: {remaining} of {limit} portal searches left today (all its users together).',
    tr: 'Üyeniz: bugün {limit} portal sorgusundan {remaining} sorgu kaldı (tüm kullanıcılarınız birlikte).',
  },
  'search.member_rate_limited': {
    en: "Your member's {limit} portal searches for today are used up by its users. They reset at midnight Turkey time.",
    tr: 'Üyenizin bugünkü {limit} portal sorgusu kullanıcılarınızca kullanıldı. Türkiye saatiyle gece yarısı yenilenir.',
  },
  'search.reason.rate_limited': {
    en: 'You have used all {limit} of your portal searches for today. They reset at midnight Turkey time.',
    tr: 'Bugünkü {limit} portal sorgu hakkınızın tümünü kullandınız. Türkiye saatiyle gece yarısı yenilenir.',
  },
  'search.reason.member_suspended': {
    en: 'Your membership is suspended: searching is paused. Contact the association.',
    tr: 'Üyeliğiniz askıya alındı: sorgular durduruldu. Dernekle iletişime geçin.',
  },
  'search.reason.member_terminated': {
    en: 'Your membership has ended: searching is not available.',
    tr: 'Üyeliğiniz sona erdi: sorgu yapılamaz.',
  },
  'search.reason.member_not_full': {
    en: 'Searching is for full members; your membership is associate.',
    tr: 'Sorgu asil üyelere açıktır; üyeliğiniz ortak üyeliktir.',
  },
  'search.reason.agreement_unsigned': {
    en: "Your member's data agreement is not signed yet: searching starts once your member's admin signs it on the Agreement page.",
    tr: 'Üyenizin veri sözleşmesi henüz imzalanmadı: üyenizin yöneticisi Sözleşme sayfasında imzaladığında sorgu yapabilirsiniz.',
  },
  'search.cannot_search': {
    en: 'You cannot search yet.',
    tr: 'Henüz sorgu yapamazsınız.',
  },
});
