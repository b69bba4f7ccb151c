/** Texts of the API key page (D16, D28). English and Turkish, same keys. */
import { defineMessages } from './define.ts';

export const apiKeyMessages = defineMessages({
  'api.title': {
    en: 'API access',
    tr: 'API erişimi',
  },
  'api.intro': {
    en: 'Your systems call the search API with this key in the X-API-Key header. Keep it in a secret store; it is shown only once.',
    tr: 'Sistemleriniz arama API’sini bu anahtarla, X-API-Key başlığında çağırır. Anahtarı gizli bir depoda saklayın; yalnızca bir kez gösterilir.',
  },
  'api.no_key': {
    en: 'Your member has no active key.',
    tr: 'Üyenizin etkin bir anahtarı yok.',
  },
  'api.prefix': {
    en: 'Key',
    tr: 'Anahtar',
  },
  'api.created': {
    en: 'Created',
    tr: 'Oluşturulma',
  },
  'api.last_use': {
    en: 'Last used',
    tr: 'Son kullanım',
  },
  'api.never': {
    en: 'never',
    tr: 'hiç',
  },
  'api.daily_limit': {
    en: 'Daily limit',
    tr: 'Günlük sınır',
  },
  'api.used_today': {
    en: 'Used today',
    tr: 'Bugünkü kullanım',
  },
  'api.generate': {
    en: 'Generate a key',
    tr: 'Anahtar oluştur',
  },
  'api.regenerate': {
    en: 'Regenerate the key',
    tr: 'Anahtarı yenile',
  },
  'api.regenerate_warning': {
    en: 'Regenerating revokes the current key at once: every system that uses it gets 403 until it has the new key.',
    tr: 'Yenileme mevcut anahtarı hemen iptal eder: onu kullanan her sistem yeni anahtarı alana kadar 403 alır.',
  },
  'api.revoke': {
    en: 'Revoke the key',
    tr: 'Anahtarı iptal et',
  },
  'api.revoke_warning': {
    en: 'Revoking stops the key at once and issues no new one.',
    tr: 'İptal, anahtarı hemen durdurur ve yenisini oluşturmaz.',
  },
  'api.new_key_title': {
    en: 'Your new API key',
    tr: 'Yeni API anahtarınız',
  },
  'api.new_key_once': {
    en: 'Copy it now: it is shown only this once and cannot be shown again.',
    tr: 'Şimdi kopyalayın: yalnızca bu kez gösterilir, bir daha gösterilemez.',
  },
  'api.new_key_label': {
    en: 'API key',
    tr: 'API anahtarı',
  },
  'api.copy': {
    en: 'Copy',
    tr: 'Kopyala',
  },
  'api.copied': {
    en: 'Copied',
    tr: 'Kopyalandı',
  },
  'api.try_it': {
    en: 'Try it with curl:',
    tr: 'curl ile deneyin:',
  },
  'api.curl_label': {
    en: 'curl command',
    tr: 'curl komutu',
  },
  'api.old_revoked': {
    en: 'The previous key is revoked.',
    tr: 'Önceki anahtar iptal edildi.',
  },
  'api.revoked': {
    en: 'The key is revoked. Generate a new one when you need it.',
    tr: 'Anahtar iptal edildi. Gerektiğinde yenisini oluşturun.',
  },
  'api.not_active': {
    en: 'The membership is not active: no key can be generated.',
    tr: 'Üyelik etkin değil: anahtar oluşturulamaz.',
  },
  'api.agreement_needed': {
    en: 'The key is refused until the data agreement is signed.',
    tr: 'Veri sözleşmesi imzalanana kadar anahtar reddedilir.',
  },
  'api.docs': {
    en: 'API reference',
    tr: 'API belgeleri',
  },
});
