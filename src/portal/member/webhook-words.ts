/**
 * What went wrong with a delivery, in the page's language. The delivery worker keeps its words in
 * English (`last_error`, `disabled_reason`: src/webhooks/delivery-rules.ts, webhook-sender.ts,
 * delivery-worker.ts), as the log and the API say them; a Turkish page words the known shapes in
 * Turkish and keeps what comes from the network (a host, a TLS library's message) as it is.
 * Words of a shape it does not know are shown in English rather than not at all. Pure.
 */
import type { Locale } from '../portal-context.ts';

type Rule = readonly [RegExp, (m: RegExpExecArray, again: (text: string) => string) => string];

/** English shapes → Turkish; the first that matches the whole text wins. */
const TURKISH: readonly Rule[] = [
  [
    /^The endpoint answered 410 Gone, which asks for no more deliveries\.$/,
    () => 'Adres 410 Gone yanıtı verdi; bu, başka gönderim istenmediği anlamına gelir.',
  ],
  [
    /^A message could not be delivered in (\d+) attempts over 3 days; the last attempt: (.*)\.$/s,
    (m, again) => `Bir ileti 3 gün içinde ${m[1]!} denemede iletilemedi; son deneme: ${again(m[2]!)}.`,
  ],
  [/^answered 410 Gone: the receiver asked for no more deliveries$/, () => '410 Gone yanıtı verdi: alıcı başka gönderim istemiyor'],
  [
    /^answered (\d{3}), a redirect: redirects are not followed, so give the endpoint its final URL$/,
    (m) => `${m[1]!} yanıtı verdi, bir yönlendirme: yönlendirmeler izlenmez; adresin son URL’sini girin`,
  ],
  [/^answered (\d{3}), not a 2xx$/, (m) => `${m[1]!} yanıtı verdi, 2xx değil`],
  [/^no answer within (\d+(?:\.\d+)?) s$/, (m) => `${m[1]!} sn içinde yanıt gelmedi`],
  [/^(\S+) refused the connection$/, (m) => `${m[1]!} bağlantıyı reddetti`],
  [/^(\S+) closed the connection before answering$/, (m) => `${m[1]!} yanıt vermeden bağlantıyı kapattı`],
  [/^(\S+) could not be resolved$/, (m) => `${m[1]!} çözümlenemedi`],
  [/^(\S+) could not be reached$/, (m) => `${m[1]!} adresine ulaşılamadı`],
  [/^the TLS connection to (\S+) failed: (.*)$/s, (m) => `${m[1]!} ile TLS bağlantısı kurulamadı: ${m[2]!}`],
  [/^refused: (.*)$/s, (m, again) => `izin verilmeyen adres, gönderilmedi: ${again(m[1]!)}`],
  [
    /^(\S+) does not resolve to a public address \(it resolves to a private or reserved address, or to none\): webhooks only go to public addresses; give a host name that resolves to a public internet address$/,
    (m) =>
      `${m[1]!} internete açık bir adrese çözümlenmiyor (özel ya da ayrılmış bir adrese çözümleniyor ya da hiç çözümlenmiyor): bildirimler yalnızca internete açık adreslere gönderilir; internete açık bir adrese çözümlenen bir alan adı girin`,
  ],
  [
    /^not sent: the server could not read this endpoint's signing secret; .*$/s,
    () => 'gönderilmedi: sunucu bu adresin imzalama anahtarını okuyamadı; bir dakika sonra yeniden dener (işletmecisi sunucu günlüğünden haberdar edilir)',
  ],
];

/** `text` (a delivery's last error or an endpoint's disabled reason) for a reader of `locale`. */
export function deliveryProblemText(locale: Locale, text: string): string {
  if (locale === 'en') return text;
  const again = (inner: string) => deliveryProblemText(locale, inner);
  for (const [pattern, word] of TURKISH) {
    const m = pattern.exec(text);
    if (m) return word(m, again);
  }
  return text;
}
