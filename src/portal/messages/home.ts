/** Texts of the member home page and the operator placeholder. */
import { defineMessages } from './define.ts';

export const homeMessages = defineMessages({
  'home.title': { en: 'Home', tr: 'Ana sayfa' },
  'home.welcome': { en: 'Welcome, {name}', tr: 'Hoş geldiniz, {name}' },
  'home.member': { en: 'Member', tr: 'Üye' },
  'home.status': { en: 'Membership status', tr: 'Üyelik durumu' },
  'home.status.active': { en: 'Active', tr: 'Etkin' },
  'home.status.suspended': { en: 'Suspended', tr: 'Askıya alındı' },
  'home.status.terminated': { en: 'Terminated', tr: 'Sona erdi' },
  'home.tier': { en: 'Tier', tr: 'Üyelik türü' },
  'home.tier.full': { en: 'Full member', tr: 'Tam üye' },
  'home.tier.associate': { en: 'Associate member', tr: 'Ortak üye' },
  'home.agreement': { en: 'Data agreement', tr: 'Veri sözleşmesi' },
  'home.agreement.signed': { en: 'Signed on {date}', tr: '{date} tarihinde imzalandı' },
  'home.agreement.unsigned': { en: 'Not signed yet: the API refuses the key until it is.', tr: 'Henüz imzalanmadı: imzalanana kadar API anahtarı reddeder.' },
  'home.quota': { en: "Today's API quota", tr: 'Bugünkü API kotası' },
  'home.quota.value': { en: '{used} of {limit} queries used today (key {prefix}…)', tr: 'Bugün {limit} sorgunun {used} tanesi kullanıldı (anahtar {prefix}…)' },
  'home.quota.noKey': { en: 'No API key yet.', tr: 'Henüz API anahtarı yok.' },
  'home.role': { en: 'Your role', tr: 'Rolünüz' },
  'home.role.member_admin': { en: 'Member administrator', tr: 'Üye yöneticisi' },
  'home.role.member_user': { en: 'Member user', tr: 'Üye kullanıcısı' },
  'home.role.operator': { en: 'Operator', tr: 'Operatör' },
  'operator.title': { en: 'Operator console', tr: 'Operatör konsolu' },
  'operator.placeholder': { en: 'The operator console is being built.', tr: 'Operatör konsolu hazırlanıyor.' },
});
