/** Texts of the usage page (D28). English and Turkish, same keys. */
export const usageMessages = {
  en: {
    'usage.nav': 'Usage',
    'usage.title': 'Usage',
    'usage.intro': 'Answered searches of your member over the last 30 days (Turkey time), through the API and through this portal.',
    'usage.chart_title': 'Searches per day, last 30 days',
    'usage.chart_desc': 'Bar chart: API and portal searches for each of the last 30 days; the same numbers are in the table below.',
    'usage.api': 'API',
    'usage.portal': 'Portal',
    'usage.day': 'Day',
    'usage.total': 'Total',
    'usage.table_caption': 'Searches per day',
    'usage.csv': 'Download as CSV',
  },
  tr: {
    'usage.nav': 'Kullanım',
    'usage.title': 'Kullanım',
    'usage.intro': 'Üyenizin son 30 gündeki yanıtlanan sorguları (Türkiye saati), API üzerinden ve bu portal üzerinden.',
    'usage.chart_title': 'Günlük sorgular, son 30 gün',
    'usage.chart_desc': 'Çubuk grafik: son 30 günün her biri için API ve portal sorguları; aynı sayılar aşağıdaki tabloda.',
    'usage.api': 'API',
    'usage.portal': 'Portal',
    'usage.day': 'Gün',
    'usage.total': 'Toplam',
    'usage.table_caption': 'Günlük sorgular',
    'usage.csv': 'CSV olarak indir',
  },
} as const;
