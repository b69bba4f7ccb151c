/** Texts of the data agreement page (D28). English and Turkish, same keys. */
import { defineMessages } from './define.ts';

export const agreementMessages = defineMessages({
  'agreement.title': {
    en: 'Data agreement',
    tr: 'Veri kullanım sözleşmesi',
  },
  'agreement.version': {
    en: 'Version {version}',
    tr: 'Sürüm {version}',
  },
  'agreement.signed': {
    en: 'Signed on {date} by {signer} (version {version}).',
    tr: '{date} tarihinde {signer} tarafından imzalandı (sürüm {version}).',
  },
  'agreement.signed_by_operator': {
    en: 'Recorded as signed on {date} by the association. Your admin can sign it here too, so that who signed which version is kept.',
    tr: '{date} tarihinde dernek tarafından imzalı olarak kaydedildi. Kimin hangi sürümü imzaladığı kayıtlı olsun diye yöneticiniz burada da imzalayabilir.',
  },
  'agreement.unsigned': {
    en: "Not signed yet. Until it is signed, your member's API key and portal searches are refused.",
    tr: 'Henüz imzalanmadı. İmzalanana kadar üyenizin API anahtarı ve portal sorguları reddedilir.',
  },
  'agreement.new_version': {
    en: 'A new version of the agreement is waiting to be signed.',
    tr: 'Sözleşmenin yeni bir sürümü imzanızı bekliyor.',
  },
  'agreement.accept': {
    en: 'On behalf of {member}, I have read and accept this agreement',
    tr: '{member} adına bu sözleşmeyi okudum ve kabul ediyorum',
  },
  'agreement.sign': {
    en: 'Sign the agreement',
    tr: 'Sözleşmeyi imzala',
  },
  'agreement.only_admin': {
    en: "Only your member's admin can sign the agreement.",
    tr: 'Sözleşmeyi yalnızca üyenizin yöneticisi imzalayabilir.',
  },
  'agreement.just_signed': {
    en: 'Thank you: the agreement is signed. Your API key now works.',
    tr: 'Teşekkürler: sözleşme imzalandı. API anahtarınız artık çalışıyor.',
  },
  'agreement.must_accept': {
    en: 'Tick the box to accept the agreement.',
    tr: 'Sözleşmeyi kabul etmek için kutuyu işaretleyin.',
  },
});
