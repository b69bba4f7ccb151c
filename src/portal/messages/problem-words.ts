/**
 * Words the problem texts put in their placeholders (problem-text.ts): form fields, member
 * statuses, moderation steps, and the parts of a tax-ID format. Report types and statuses, and
 * D14's case fields, have their words in search.ts, reports.ts and case-fields.ts.
 */
import { defineMessages } from './define.ts';

export const problemWordMessages = defineMessages({
  'word.field.company_name': { en: 'Company name', tr: 'Şirket adı' },
  'word.field.tax_id': { en: 'Tax ID', tr: 'Vergi numarası' },
  'word.field.country': { en: 'Country', tr: 'Ülke' },
  'word.field.city': { en: 'City', tr: 'Şehir' },
  'word.field.type': { en: 'Type', tr: 'Tür' },
  'word.field.event_date': { en: 'Date of the event', tr: 'Olay tarihi' },
  'word.field.amount': { en: 'Amount', tr: 'Tutar' },
  'word.field.currency': { en: 'Currency', tr: 'Para birimi' },
  'word.field.description': { en: 'Description', tr: 'Açıklama' },
  'word.field.court_decision_date': { en: 'Court decision date', tr: 'Mahkeme karar tarihi' },
  'word.field.concordat_start': { en: 'Concordat start date', tr: 'Konkordato başlangıç tarihi' },
  'word.field.concordat_end': { en: 'Concordat end date', tr: 'Konkordato bitiş tarihi' },
  'word.field.note': { en: 'Note', tr: 'Not' },
  'word.field.reason': { en: 'Reason', tr: 'Gerekçe' },
  'word.field.name': { en: 'Name', tr: 'Ad' },
  'word.member_status.active': { en: 'active', tr: 'etkin' },
  'word.member_status.suspended': { en: 'suspended', tr: 'askıya alınmış durumda' },
  'word.member_status.terminated': { en: 'terminated', tr: 'sona ermiş' },
  'word.step.approve': { en: 'approval', tr: 'onay' },
  'word.step.reject': { en: 'rejection', tr: 'ret' },
  'word.step.deactivate': { en: 'deactivation', tr: 'kaldırma' },
  'word.step.withdraw': { en: 'withdrawal', tr: 'geri çekme' },
  'word.or': { en: ' or ', tr: ' ya da ' },
  'word.taxId.format': { en: '{type} ({length}{checksum}, e.g. {example})', tr: '{type} ({length}{checksum}, ör. {example})' },
  'word.taxId.digits': { en: '{count} digits', tr: '{count} rakam' },
  'word.taxId.digitsRange': { en: '{min} to {max} digits', tr: '{min} ile {max} arasında rakam' },
  'word.taxId.alphanumeric': { en: '{count} letters or digits', tr: '{count} harf ya da rakam' },
  'word.taxId.alphanumericRange': { en: '{min} to {max} letters or digits', tr: '{min} ile {max} arasında harf ya da rakam' },
  'word.taxId.pattern': { en: 'matching {pattern}', tr: '{pattern} kalıbına uyan' },
  'word.taxId.checksum': { en: ' with check digits', tr: ', kontrol basamaklı' },
});
