import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideAfterAttempt, describeFailure, MAX_ATTEMPTS } from '../../webhooks/delivery-rules.ts';
import { UNREADABLE_SECRET_ERROR } from '../../webhooks/delivery-worker.ts';
import { AddressRefusedError } from '../../webhooks/safe-lookup.ts';
import { failureWords } from '../../webhooks/webhook-sender.ts';
import { deliveryProblemText } from './webhook-words.ts';

// The worker's own words, made by its own functions: a change of wording there fails here.
const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

test("every failure the worker words is put in Turkish; English readers get the worker's words", () => {
  const cases: Array<[string, string]> = [
    [describeFailure({ kind: 'answered', status: 500, retryAfter: null }), '500 yanıtı verdi, 2xx değil'],
    [
      describeFailure({ kind: 'answered', status: 301, retryAfter: null }),
      '301 yanıtı verdi, bir yönlendirme: yönlendirmeler izlenmez; adresin son URL’sini girin',
    ],
    [describeFailure({ kind: 'answered', status: 410, retryAfter: null }), '410 Gone yanıtı verdi: alıcı başka gönderim istemiyor'],
    [describeFailure({ kind: 'no_answer', error: 'no answer within 10 s' }), '10 sn içinde yanıt gelmedi'],
    [failureWords(errno('ECONNREFUSED'), 'hooks.example.com'), 'hooks.example.com bağlantıyı reddetti'],
    [failureWords(errno('ECONNRESET'), 'hooks.example.com'), 'hooks.example.com yanıt vermeden bağlantıyı kapattı'],
    [failureWords(errno('ENOTFOUND'), 'hooks.example.com'), 'hooks.example.com çözümlenemedi'],
    [failureWords(errno('EHOSTUNREACH'), 'hooks.example.com'), 'hooks.example.com adresine ulaşılamadı'],
    [
      failureWords(errno('CERT_HAS_EXPIRED', 'certificate has expired'), 'hooks.example.com'),
      'hooks.example.com ile TLS bağlantısı kurulamadı: certificate has expired',
    ],
    [
      failureWords(new AddressRefusedError('evil.example', '127.0.0.1', 'loopback'), 'evil.example'),
      'izin verilmeyen adres, gönderilmedi: evil.example internete açık bir adrese çözümlenmiyor (özel ya da ayrılmış bir adrese çözümleniyor ya da hiç çözümlenmiyor): bildirimler yalnızca internete açık adreslere gönderilir; internete açık bir adrese çözümlenen bir alan adı girin',
    ],
  ];
  for (const [english, turkish] of cases) {
    assert.equal(deliveryProblemText('tr', english), turkish, english);
    assert.equal(deliveryProblemText('en', english), english);
  }
  assert.match(deliveryProblemText('tr', UNREADABLE_SECRET_ERROR), /^gönderilmedi: sunucu bu adresin imzalama anahtarını okuyamadı/);
});

test("an endpoint's disabled reason in Turkish, the last attempt's words within it", () => {
  const gone = decideAfterAttempt({ kind: 'answered', status: 410, retryAfter: null }, 1, 0, 0);
  assert.ok(gone.kind === 'failed');
  assert.equal(deliveryProblemText('tr', gone.disableEndpoint), 'Adres 410 Gone yanıtı verdi; bu, başka gönderim istenmediği anlamına gelir.');
  const last = decideAfterAttempt({ kind: 'answered', status: 503, retryAfter: null }, MAX_ATTEMPTS, 0, 0);
  assert.ok(last.kind === 'failed');
  assert.equal(
    deliveryProblemText('tr', last.disableEndpoint),
    `Bir ileti 3 gün içinde ${MAX_ATTEMPTS} denemede iletilemedi; son deneme: 503 yanıtı verdi, 2xx değil.`,
  );
});

test('words of an unknown shape are shown as they are', () => {
  assert.equal(deliveryProblemText('tr', 'something new'), 'something new');
});
