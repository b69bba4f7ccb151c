/**
 * Refused requests: every D2 reason (`error.reason.<reason>`, for a page that has no more precise
 * words), and the problems of a search's fields and of the transport by code (src/lib/problems.ts).
 */
import { defineMessages } from './define.ts';

export const requestProblemMessages = defineMessages({
  'problem.search.key_in_url': {
    en: 'Do not put an API key in the address (parameter {names}): addresses end up in logs and browser history. Regenerate the key if it was exposed.',
    tr: 'API anahtarını adrese koymayın ({names} parametresi): adresler kayıtlarda ve tarayıcı geçmişinde kalır. Açığa çıktıysa anahtarı yenileyin.',
  },
  'problem.search.parameter_repeated': { en: '{name} was given {count} times: give it once.', tr: '{name} alanı {count} kez verildi: bir kez verin.' },
  'problem.search.parameter_encoding': {
    en: '{name} is not valid percent-encoded UTF-8.',
    tr: '{name} alanı geçerli yüzde kodlamalı UTF-8 değil.',
  },
  'problem.search.control_characters': {
    en: 'The search must not contain control characters (such as tabs or line breaks).',
    tr: 'Sorgu kontrol karakterleri (sekme, satır sonu gibi) içeremez.',
  },
  'problem.search.q_length': {
    en: 'Enter {min} to {max} characters, not counting spaces at either end.',
    tr: 'Baştaki ve sondaki boşluklar sayılmadan {min} ile {max} arasında karakter girin.',
  },
  'problem.search.type_invalid': { en: 'Search by name or by tax ID.', tr: 'Ada ya da vergi numarasına göre sorgulayın.' },
  'problem.search.country_unsupported': { en: 'The country {country} is not supported.', tr: '{country} ülkesi desteklenmiyor.' },
  'problem.search.too_generic': {
    en: '“{q}” is too generic: after dropping legal forms and punctuation, no word of 3 or more letters is left. Add a distinctive part of the company name.',
    tr: '“{q}” çok genel: hukuki biçim ekleri ve noktalama atıldığında 3 ya da daha fazla harfli bir kelime kalmıyor. Firma adının ayırt edici bir bölümünü ekleyin.',
  },
  'problem.request.uri_too_long': { en: 'The address is longer than {max} characters.', tr: 'Adres {max} karakterden uzun.' },
  'problem.request.https_required': {
    en: 'HTTPS is required: open the portal at its https:// address.',
    tr: 'HTTPS gerekli: portalı https:// adresinden açın.',
  },
  'problem.request.body_not_allowed': { en: '{method} requests take no body.', tr: '{method} istekleri gövde içeremez.' },
  'error.reason.invalid_parameter': { en: 'A value of the request is not valid.', tr: 'İstekteki bir değer geçerli değil.' },
  'error.reason.duplicate_parameter': { en: 'A field was given twice.', tr: 'Bir alan iki kez verildi.' },
  'error.reason.query_too_generic': {
    en: 'The name is too general: add a distinctive word of the company name.',
    tr: 'Ad çok genel: firma adından ayırt edici bir kelime ekleyin.',
  },
  'error.reason.invalid_tax_id': {
    en: 'This is not a valid tax ID for the chosen country: check the digits.',
    tr: 'Bu, seçilen ülke için geçerli bir vergi numarası değil: rakamları kontrol edin.',
  },
  'error.reason.invalid_cursor': { en: 'The position in the event list is not valid.', tr: 'Olay listesindeki konum geçerli değil.' },
  'error.reason.watchlist_full': {
    en: "Your member's watchlist is full: remove a company first.",
    tr: 'Üyenizin izleme listesi dolu: önce bir şirketi çıkarın.',
  },
  'error.reason.unsupported_country': { en: 'This country is not supported.', tr: 'Bu ülke desteklenmiyor.' },
  'error.reason.key_in_url': {
    en: 'Do not put an API key in an address: regenerate the key if it was exposed.',
    tr: 'API anahtarını adrese koymayın: açığa çıktıysa anahtarı yenileyin.',
  },
  'error.reason.malformed_request': { en: 'The request could not be read.', tr: 'İstek okunamadı.' },
  'error.reason.body_not_allowed': { en: 'This request must not carry a body.', tr: 'Bu istek gövde içeremez.' },
  'error.reason.api_key_missing': { en: 'The API key is missing.', tr: 'API anahtarı eksik.' },
  'error.reason.api_key_invalid': { en: 'The API key is not valid.', tr: 'API anahtarı geçerli değil.' },
  'error.reason.key_revoked': { en: 'The API key is revoked.', tr: 'API anahtarı iptal edilmiş.' },
  'error.reason.member_suspended': {
    en: 'Your membership is suspended: contact the association.',
    tr: 'Üyeliğiniz askıya alındı: dernekle iletişime geçin.',
  },
  'error.reason.member_terminated': { en: 'Your membership has ended.', tr: 'Üyeliğiniz sona erdi.' },
  'error.reason.member_not_full': {
    en: 'This is for full members; your membership is associate.',
    tr: 'Bu, asil üyelere açıktır; üyeliğiniz ortak üyelik.',
  },
  'error.reason.agreement_unsigned': {
    en: "Your member's data agreement is not signed yet.",
    tr: 'Üyenizin veri sözleşmesi henüz imzalanmadı.',
  },
  'error.reason.https_required': { en: 'HTTPS is required: use the https:// address.', tr: 'HTTPS gerekli: https:// adresini kullanın.' },
  'error.reason.not_found': { en: 'There is no such page.', tr: 'Böyle bir sayfa yok.' },
  'error.reason.method_not_allowed': { en: 'This page does not take this kind of request.', tr: 'Bu sayfa bu tür bir isteği kabul etmiyor.' },
  'error.reason.request_timeout': { en: 'The request did not arrive in time: try again.', tr: 'İstek zamanında ulaşmadı: yeniden deneyin.' },
  'error.reason.payload_too_large': { en: 'What was sent is too large.', tr: 'Gönderilen veri çok büyük.' },
  'error.reason.uri_too_long': { en: 'The address is too long.', tr: 'Adres çok uzun.' },
  'error.reason.unsupported_media_type': { en: 'This kind of content is not accepted here.', tr: 'Bu içerik türü burada kabul edilmiyor.' },
  'error.reason.rate_limited': {
    en: 'The daily allowance is used up; it resets at midnight Turkey time.',
    tr: 'Günlük hak doldu; Türkiye saatiyle gece yarısı yenilenir.',
  },
  'error.reason.header_too_large': { en: 'The request headers are too large.', tr: 'İstek başlıkları çok büyük.' },
  'error.reason.internal_error': { en: 'An internal error occurred.', tr: 'Bir iç hata oluştu.' },
  'error.reason.not_implemented': { en: 'This kind of request is not supported.', tr: 'Bu tür istek desteklenmiyor.' },
  'error.reason.service_unavailable': {
    en: 'The service is not available right now: try again shortly.',
    tr: 'Hizmet şu anda kullanılamıyor: biraz sonra yeniden deneyin.',
  },
  'error.reason.overloaded': { en: 'The service is busy. Try again in a moment.', tr: 'Hizmet şu anda yoğun. Biraz sonra tekrar deneyin.' },
});
