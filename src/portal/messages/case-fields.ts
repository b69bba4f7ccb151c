/** D14's case fields in words, for the filing form (the API keeps its field names). */
import { defineMessages } from './define.ts';

export const caseFieldMessages = defineMessages({
  'case.enforcement_office': { en: 'Enforcement office', tr: 'İcra dairesi' },
  'case.file_number': { en: 'File number', tr: 'Dosya numarası' },
  'case.date': { en: 'Date of the file', tr: 'Dosya tarihi' },
  'case.prosecutor_office': { en: "Public prosecutor's office", tr: 'Cumhuriyet başsavcılığı' },
  'case.investigation_number': { en: 'Investigation number', tr: 'Soruşturma numarası' },
  'case.collection_company': { en: 'Collection company', tr: 'Varlık yönetim şirketi' },
  'case.contract_number': { en: 'Assignment contract number', tr: 'Temlik sözleşmesi numarası' },
  'case.assignment_date': { en: 'Date of the assignment', tr: 'Temlik tarihi' },
});
