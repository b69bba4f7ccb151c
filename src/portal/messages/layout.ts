/** Texts of the page frame: navigation, language switch, sign-out, error pages. */
import { defineMessages } from './define.ts';

export const layoutMessages = defineMessages({
  'layout.product': { en: 'Risk Lookup portal', tr: 'Risk Sorgulama portalı' },
  'layout.skip': { en: 'Skip to content', tr: 'İçeriğe geç' },
  'layout.nav': { en: 'Main menu', tr: 'Ana menü' },
  'layout.nav.home': { en: 'Home', tr: 'Ana sayfa' },
  'layout.nav.agreement': { en: 'Agreement', tr: 'Sözleşme' },
  'layout.nav.api': { en: 'API', tr: 'API' },
  'layout.nav.usage': { en: 'Usage', tr: 'Kullanım' },
  'layout.nav.search': { en: 'Search', tr: 'Sorgula' },
  'layout.nav.users': { en: 'Users', tr: 'Kullanıcılar' },
  'layout.nav.operator': { en: 'Operator console', tr: 'Operatör konsolu' },
  'layout.signedInAs': { en: 'Signed in as {name}', tr: '{name} olarak oturum açık' },
  'layout.signOut': { en: 'Sign out', tr: 'Oturumu kapat' },
  'layout.language': { en: 'Language', tr: 'Dil' },
  'layout.language.change': { en: 'Change', tr: 'Değiştir' },
  'layout.language.tr': { en: 'Türkçe', tr: 'Türkçe' },
  'layout.language.en': { en: 'English', tr: 'English' },
  'layout.apiDocs': { en: 'API reference', tr: 'API başvuru belgesi' },
  'error.title': { en: 'Something went wrong', tr: 'Bir sorun oluştu' },
  'error.notFound.title': { en: 'Page not found', tr: 'Sayfa bulunamadı' },
  'error.notFound.text': { en: 'There is no such page, or it is not yours to see.', tr: 'Böyle bir sayfa yok ya da görme yetkiniz yok.' },
  'error.forbidden.title': { en: 'Not allowed', tr: 'İzin verilmedi' },
  'error.forbidden.text': { en: 'Your account cannot open this page.', tr: 'Hesabınız bu sayfayı açamaz.' },
  'error.csrf.text': {
    en: 'This form has expired or did not come from this site. Go back, reload the page and try again.',
    tr: 'Bu formun süresi dolmuş ya da form bu siteden gelmemiş. Geri dönüp sayfayı yenileyin ve tekrar deneyin.',
  },
  'error.signInNeeded': { en: 'Please sign in again.', tr: 'Lütfen yeniden oturum açın.' },
  'error.badRequest.title': { en: 'The request was not understood', tr: 'İstek anlaşılamadı' },
  'error.query.repeated': {
    en: 'The parameter “{name}” is given more than once in the address. Give it once, or open the page from its link again.',
    tr: '“{name}” parametresi adreste birden fazla kez verilmiş. Bir kez verin ya da sayfayı bağlantısından yeniden açın.',
  },
  'error.query.encoding': {
    en: 'The parameter “{name}” in the address is not valid text (percent-encoded UTF-8). Open the page from its link again.',
    tr: 'Adresteki “{name}” parametresi geçerli bir metin değil (yüzde kodlamalı UTF-8). Sayfayı bağlantısından yeniden açın.',
  },
  'error.busy.text': { en: 'The service is busy. Try again in a moment.', tr: 'Hizmet şu anda yoğun. Biraz sonra tekrar deneyin.' },
  'error.internal.text': {
    en: 'An internal error occurred; quote request id {id} when you report it.',
    tr: 'Bir iç hata oluştu; bildirirken şu istek numarasını belirtin: {id}.',
  },
  'error.uploadTooLarge.text': {
    en: 'A report takes at most 3 attachments (PDF, PNG or JPEG) of 5 MB each. Go back and choose fewer or smaller files.',
    tr: 'Bir bildirime en çok 3 ek (PDF, PNG ya da JPEG), her biri en çok 5 MB, eklenebilir. Geri dönüp daha az ya da daha küçük dosya seçin.',
  },
  'error.backHome': { en: 'Back to the portal', tr: 'Portala dön' },
});
