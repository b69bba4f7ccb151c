/** Why a step on a webhook endpoint or delivery is refused (D32), by problem code (src/lib/problems.ts). */
import { defineMessages } from './define.ts';

export const webhookProblemMessages = defineMessages({
  'problem.webhook.url_invalid': {
    en: '“{value}” is not a web address such as https://hooks.example.com/risklookup.',
    tr: '“{value}” https://hooks.example.com/risklookup gibi bir web adresi değil.',
  },
  'problem.webhook.url_not_https': {
    en: 'The address must start with https://: deliveries are sent over HTTPS only.',
    tr: 'Adres https:// ile başlamalı: bildirimler yalnızca HTTPS üzerinden gönderilir.',
  },
  'problem.webhook.url_credentials': {
    en: 'The address may not hold a user name or password: every delivery is signed instead.',
    tr: 'Adreste kullanıcı adı ya da parola olamaz: her bildirim bunun yerine imzalanır.',
  },
  'problem.webhook.url_fragment': {
    en: 'The address may not end with a # part: it is never sent to the receiver.',
    tr: 'Adres # ile başlayan bir bölümle bitemez: bu bölüm alıcıya hiç gönderilmez.',
  },
  'problem.webhook.url_too_long': { en: 'The address is longer than {max} characters.', tr: 'Adres en çok {max} karakter olabilir.' },
  'problem.webhook.address_refused': {
    en: '{host} does not resolve to a public address (it resolves to a private or reserved address, or to none). Webhooks only go to public addresses: give a host name that resolves to a public internet address.',
    tr: '{host} internete açık bir adrese çözümlenmiyor (özel ya da ayrılmış bir adrese çözümleniyor ya da hiç çözümlenmiyor). Bildirimler yalnızca internete açık adreslere gönderilir: internete açık bir adrese çözümlenen bir alan adı girin.',
  },
  'problem.webhook.address_refusals_used_up': {
    en: 'No more endpoints today: {max} addresses of your member were refused today (not a public address). Registering opens again at {resets} Turkey time.',
    tr: 'Bugün başka adres eklenemez: üyenizin {max} adresi bugün reddedildi (internete açık bir adres değil). Kayıt Türkiye saatiyle {resets} itibarıyla yeniden açılır.',
  },
  'problem.webhook.endpoint_cap': {
    en: 'A member has at most {max} endpoints: delete one before adding another.',
    tr: 'Bir üyenin en çok {max} adresi olabilir: yenisini eklemeden önce birini silin.',
  },
  'problem.webhook.url_taken': {
    en: '{url} is registered already: each message would be sent to it twice. If its secret was lost, rotate the secret instead.',
    tr: '{url} zaten kayıtlı: her ileti ona iki kez gönderilirdi. Anahtarı kaybolduysa bunun yerine anahtarı yenileyin.',
  },
  'problem.webhook.endpoint_not_found': { en: 'There is no endpoint {id} of your member.', tr: 'Üyenizin {id} numaralı bir adresi yok.' },
  'problem.webhook.admin_only': {
    en: "Only the member's administrator manages its webhook endpoints.",
    tr: 'Üyenin bildirim adreslerini yalnızca üye yöneticisi yönetir.',
  },
  'problem.webhook.endpoint_disabled': {
    en: 'Endpoint {id} is disabled: enable it first.',
    tr: '{id} numaralı adres devre dışı: önce etkinleştirin.',
  },
  'problem.webhook.delivery_not_found': { en: 'There is no delivery {id} to your endpoints.', tr: 'Adreslerinize {id} numaralı bir gönderim yok.' },
  'problem.webhook.delivery_in_progress': {
    en: 'Delivery {id} is being sent right now: wait for its outcome.',
    tr: '{id} numaralı gönderim şu anda yapılıyor: sonucunu bekleyin.',
  },
  'problem.webhook.manual_sends_used_up': {
    en: 'At most {max} test events and redeliveries a day for all your endpoints together: try again after midnight Turkey time.',
    tr: 'Tüm adresleriniz için günde en çok {max} deneme bildirimi ve yeniden gönderim yapılabilir: Türkiye saatiyle gece yarısından sonra yeniden deneyin.',
  },
  'problem.watchlist.full': {
    en: 'Your watchlist holds {cap} companies, its limit: remove one you no longer need, or ask the association for a higher limit.',
    tr: 'İzleme listeniz sınırı olan {cap} şirketi tutuyor: artık gerekmeyen birini çıkarın ya da birlikten daha yüksek bir sınır isteyin.',
  },
});
