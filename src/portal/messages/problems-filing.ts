/**
 * What is wrong with a filed report's fields and attachments (D29), by problem code
 * (src/lib/problems.ts): `problem.<code>`. `{field}`, `{type}` and the like are filled in words
 * (problem-text.ts); the rest as the member typed it.
 */
import { defineMessages } from './define.ts';

export const filingProblemMessages = defineMessages({
  'problem.field.required': { en: '{field} is required.', tr: '{field} zorunludur.' },
  'problem.field.too_long': { en: '{field} is longer than {max} characters.', tr: '{field} en çok {max} karakter olabilir.' },
  'problem.field.control_characters': {
    en: '{field} contains control characters: remove them.',
    tr: '{field} görünmeyen kontrol karakterleri içeriyor: bunları silin.',
  },
  'problem.filing.company_name_no_letters': {
    en: 'The company name has no letters or digits beyond legal forms (such as A.Ş. or Ltd.).',
    tr: 'Şirket adında hukuki biçim ekleri (A.Ş., Ltd. gibi) dışında harf ya da rakam yok.',
  },
  'problem.country.unsupported': {
    en: '“{country}” is not a supported 2-letter country code.',
    tr: '“{country}” desteklenen 2 harfli bir ülke kodu değil.',
  },
  'problem.tax_id.invalid': {
    en: "'{value}' is not a valid {country} tax ID: expected {expected}. Check the number for a typo.",
    tr: '“{value}” geçerli bir {country} vergi numarası değil: beklenen {expected}. Numarada yazım hatası olup olmadığını kontrol edin.',
  },
  'problem.filing.type_unknown': {
    en: 'The type must be one of {types}; “{value}” is not one of them.',
    tr: 'Tür şunlardan biri olmalı: {types}; “{value}” bunlardan biri değil.',
  },
  'problem.filing.event_date_invalid': {
    en: 'The date of the event must be a date YYYY-MM-DD; “{value}” is not.',
    tr: 'Olay tarihi YYYY-AA-GG biçiminde bir tarih olmalı; “{value}” geçerli bir tarih değil.',
  },
  'problem.filing.event_date_future': {
    en: 'The date of the event, {date}, is in the future (today is {today}).',
    tr: 'Olay tarihi ({date}) gelecekte bir tarih (bugün {today}).',
  },
  'problem.filing.event_date_too_early': {
    en: 'The date of the event, {date}, is before {min}: check the year.',
    tr: 'Olay tarihi ({date}) {min} tarihinden önce: yılı kontrol edin.',
  },
  'problem.filing.amount_not_number': {
    en: 'The amount must be a number such as 1250.50; “{value}” is not.',
    tr: 'Tutar 1250,50 gibi bir sayı olmalı; “{value}” sayı değil.',
  },
  'problem.filing.amount_too_large': {
    en: 'The amount must be at most {max} ({digits} digits before the decimal point); “{value}” is more.',
    tr: 'Tutar en çok {max} olabilir (ondalık ayırıcıdan önce {digits} basamak); “{value}” bundan büyük.',
  },
  'problem.filing.claim_needs_amount': {
    en: 'An unpaid-debt report needs the amount and its currency.',
    tr: 'Ödenmemiş alacak bildirimi için tutar ve para birimi gerekir.',
  },
  'problem.report.amount_decimals': {
    en: 'The amount must have at most 2 decimals; {value} has more.',
    tr: 'Tutarın kuruş kısmı en çok 2 basamak olabilir; {value} daha fazlasını içeriyor.',
  },
  'problem.report.amount_needs_number': {
    en: 'A currency is given: give the amount too, as a number not below zero.',
    tr: 'Para birimi girildi: tutarı da sıfırdan küçük olmayan bir sayı olarak girin.',
  },
  'problem.report.currency_invalid': {
    en: 'An amount is given: its currency must be an ISO 4217 code such as TRY, EUR or USD.',
    tr: 'Tutar girildi: para birimi TRY, EUR ya da USD gibi bir ISO 4217 kodu olmalı.',
  },
  'problem.report.date_invalid': {
    en: '{field} must be a date YYYY-MM-DD; “{value}” is not.',
    tr: '{field} YYYY-AA-GG biçiminde bir tarih olmalı; “{value}” geçerli bir tarih değil.',
  },
  'problem.report.case_required': {
    en: 'A report of the type “{type}” needs its case details: {caseFields}.',
    tr: '“{type}” türündeki bildirim için dosya bilgileri gerekir: {caseFields}.',
  },
  'problem.report.case_not_used': {
    en: 'Case details are not used for reports of the type “{type}”: leave them empty.',
    tr: '“{type}” türündeki bildirimlerde dosya bilgileri kullanılmaz: boş bırakın.',
  },
  'problem.report.case_not_object': {
    en: 'The case details must be given as {caseFields}.',
    tr: 'Dosya bilgileri şu alanlarla verilmeli: {caseFields}.',
  },
  'problem.report.case_field_unknown': {
    en: '{field} is not a case detail of the type “{type}” (use {caseFields}).',
    tr: '{field}, “{type}” türündeki bir dosyanın bilgisi değil (kullanılabilecekler: {caseFields}).',
  },
  'problem.report.case_field_not_text': { en: '{field} must be text.', tr: '{field} metin olmalı.' },
  'problem.report.case_field_date': {
    en: '{field} must be a date YYYY-MM-DD.',
    tr: '{field} YYYY-AA-GG biçiminde bir tarih olmalı.',
  },
  'problem.report.court_decision_date_not_used': {
    en: 'The court decision date is not used for reports of the type “{type}”: leave it empty.',
    tr: 'Mahkeme karar tarihi “{type}” türündeki bildirimlerde kullanılmaz: boş bırakın.',
  },
  'problem.report.court_decision_date_required': {
    en: 'A court decision report needs the court decision date.',
    tr: 'Mahkeme kararı bildirimi için mahkeme karar tarihi gerekir.',
  },
  'problem.report.concordat_dates_required': {
    en: 'A concordat needs its start and end dates.',
    tr: 'Konkordato için başlangıç ve bitiş tarihleri gerekir.',
  },
  'problem.report.concordat_end_before_start': {
    en: 'The concordat end date is before its start date.',
    tr: 'Konkordato bitiş tarihi başlangıç tarihinden önce.',
  },
  'problem.report.concordat_dates_not_used': {
    en: 'Concordat dates are only for concordat reports.',
    tr: 'Konkordato tarihleri yalnızca konkordato bildirimlerinde kullanılır.',
  },
  'problem.attachment.empty': { en: 'Attachment “{file}” is empty.', tr: '“{file}” eki boş.' },
  'problem.attachment.too_large': {
    en: 'Attachment “{file}” is larger than {max} MB.',
    tr: '“{file}” eki çok büyük: bir ek en çok {max} MB olabilir.',
  },
  'problem.attachment.windows_program': {
    en: 'Attachment “{file}” is a Windows program, not a document: attach a PDF, PNG or JPEG file.',
    tr: '“{file}” eki bir Windows programı, belge değil: PDF, PNG ya da JPEG dosyası ekleyin.',
  },
  'problem.attachment.program': {
    en: 'Attachment “{file}” is a program, not a document: attach a PDF, PNG or JPEG file.',
    tr: '“{file}” eki bir program, belge değil: PDF, PNG ya da JPEG dosyası ekleyin.',
  },
  'problem.attachment.web_page': {
    en: 'Attachment “{file}” is a web page or script, not a document: attach a PDF, PNG or JPEG file.',
    tr: '“{file}” eki bir web sayfası ya da betik, belge değil: PDF, PNG ya da JPEG dosyası ekleyin.',
  },
  'problem.attachment.archive': {
    en: 'Attachment “{file}” is a ZIP archive or an office file: attach a PDF, PNG or JPEG file.',
    tr: '“{file}” eki bir ZIP arşivi ya da ofis dosyası: PDF, PNG ya da JPEG dosyası ekleyin.',
  },
  'problem.attachment.not_allowed_type': {
    en: 'Attachment “{file}” is not a PDF, PNG or JPEG file: attach one of these.',
    tr: '“{file}” eki PDF, PNG ya da JPEG dosyası değil: bu türlerden bir dosya ekleyin.',
  },
  'problem.attachment.wrong_extension': {
    en: 'Attachment “{file}” is a {kind} file but its name does not end in .{extension}.',
    tr: '“{file}” eki bir {kind} dosyası ama adı .{extension} ile bitmiyor.',
  },
  'problem.attachment.type_mismatch': {
    en: 'Attachment “{file}” was sent as {declared} but is a {kind} file.',
    tr: '“{file}” eki {declared} olarak gönderildi ama bir {kind} dosyası.',
  },
  'problem.attachment.too_many': {
    en: 'A report takes at most {max} attachments; {count} were sent.',
    tr: 'Bir bildirime en çok {max} ek eklenebilir; {count} ek gönderildi.',
  },
  'problem.attachment.not_found': { en: 'There is no attachment {id}.', tr: '{id} numaralı ek yok.' },
});
