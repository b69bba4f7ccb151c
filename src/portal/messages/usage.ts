/** Texts of the usage page (D28). English and Turkish, same keys. */
import { defineMessages } from './define.ts';

export const usageMessages = defineMessages({
  'usage.title': {
    en: 'Usage',
    tr: 'Kullanım',
  },
  'usage.intro': {
    en: 'Answered searches of your member over the last 30 days (Turkey time), through the API and through this portal.',
    tr: 'Üyenizin son 30 gündeki yanıtlanan sorguları (Türkiye saati), API üzerinden ve bu portal üzerinden.',
  },
  'usage.chart_title': {
    en: 'Searches per day, last 30 days',
    tr: 'Günlük sorgular, son 30 gün',
  },
  'usage.chart_desc': {
    en: 'Bar chart: API and portal searches for each of the last 30 days; the same numbers are in the table below.',
    tr: 'Çubuk grafik: son 30 günün her biri için API ve portal sorguları; aynı sayılar aşağıdaki tabloda.',
  },
  'usage.api': {
    en: 'API',
    tr: 'API',
  },
  'usage.portal': {
    en: 'Portal',
    tr: 'Portal',
  },
  'usage.day': {
    en: 'Day',
    tr: 'Gün',
  },
  'usage.total': {
    en: 'Total',
    tr: 'Toplam',
  },
  'usage.table_caption': {
    en: 'Searches per day',
    tr: 'Günlük sorgular',
  },
  'usage.csv': {
    en: 'Download as CSV',
    tr: 'CSV olarak indir',
  },
});
