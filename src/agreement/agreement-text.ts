/**
 * The data-use agreement a member signs before its users and its key may search (D17, D28).
 * A new text gets a new version: members that signed an older one are asked to sign again.
 */
import type { Locale } from '../lib/locale.ts';

export const AGREEMENT_VERSION = '2026-11';

export interface AgreementText {
  title: string;
  /** Numbered clauses, plain text. */
  clauses: readonly string[];
}

const TR: AgreementText = {
  title: 'Risk Veritabanı Veri Kullanım Sözleşmesi',
  clauses: [
    'Amaç. Üye, risk veritabanını yalnızca kendi ticari ilişkilerinde kredi ve tahsilat riskini değerlendirmek için kullanır. Veriler pazarlama, istihdam veya kişilerin değerlendirilmesi için kullanılamaz.',
    'Gizlilik. Sorgu sonuçları, raporlar ve API anahtarı gizlidir. Üye bunları üçüncü kişilerle paylaşmaz, yeniden satmaz ve kendi sistemleri dışında yayımlamaz.',
    'Hukuka uygunluk. Üye, verileri 6698 sayılı Kişisel Verilerin Korunması Kanunu ve ilgili mevzuata uygun olarak işler; bir rapora dayanarak aldığı kararlarda başka bilgileri de dikkate alır.',
    'Doğruluk. Bir raporun hatalı olduğunu düşünen üye durumu derneğe bildirir. Dernek raporları inceler, ancak bir raporun eksiksiz veya güncel olduğunu garanti etmez.',
    'Erişim. Üye, portal kullanıcılarını ve API anahtarını güvende tutar; ele geçirildiğinden şüphelenilen anahtarı hemen yeniler. Her sorgu kayıt altına alınır ve günlük sorgu hakkıyla sınırlıdır.',
    'Sona erme. Üyeliğin askıya alınması veya sona ermesiyle erişim durur. Dernek, bu sözleşmeye aykırılık halinde erişimi askıya alabilir.',
  ],
};

const EN: AgreementText = {
  title: 'Risk Database Data-Use Agreement',
  clauses: [
    'Purpose. The member uses the risk database only to assess credit and collection risk in its own business relationships. The data may not be used for marketing, employment or the assessment of private individuals.',
    'Confidentiality. Search results, reports and the API key are confidential. The member does not share them with third parties, resell them, or publish them outside its own systems.',
    'Lawful use. The member processes the data in line with the Turkish Personal Data Protection Law No. 6698 and related rules, and weighs other information too in any decision based on a report.',
    'Accuracy. A member who believes a report is wrong tells the association. The association reviews reports but does not guarantee that a report is complete or current.',
    'Access. The member keeps its portal accounts and its API key safe and regenerates a key it suspects is compromised at once. Every search is recorded and limited by a daily allowance.',
    'Ending. Access stops when the membership is suspended or terminated. The association may suspend access when this agreement is breached.',
  ],
};

export function agreementText(locale: Locale): AgreementText {
  return locale === 'tr' ? TR : EN;
}
