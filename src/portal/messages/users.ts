/** Texts of the member's users page (D27, D28). English and Turkish, same keys. */
import { defineMessages } from './define.ts';

export const usersMessages = defineMessages({
  'users.title': {
    en: 'Users',
    tr: 'Kullanıcılar',
  },
  'users.intro': {
    en: 'People of your member who can sign in to this portal.',
    tr: 'Üyenizden bu portala giriş yapabilen kişiler.',
  },
  'users.name': {
    en: 'Name',
    tr: 'Ad',
  },
  'users.email': {
    en: 'Email',
    tr: 'E-posta',
  },
  'users.role': {
    en: 'Role',
    tr: 'Rol',
  },
  'users.status': {
    en: 'Status',
    tr: 'Durum',
  },
  'users.actions': {
    en: 'Actions',
    tr: 'İşlemler',
  },
  'users.role.member_admin': {
    en: 'Admin (agreement, API key, users)',
    tr: 'Yönetici (sözleşme, API anahtarı, kullanıcılar)',
  },
  'users.role.member_user': {
    en: 'User (search and usage)',
    tr: 'Kullanıcı (sorgu ve kullanım)',
  },
  'users.status.invited': {
    en: 'Invited',
    tr: 'Davet edildi',
  },
  'users.status.active': {
    en: 'Active',
    tr: 'Etkin',
  },
  'users.status.disabled': {
    en: 'Disabled',
    tr: 'Devre dışı',
  },
  'users.you': {
    en: 'you',
    tr: 'siz',
  },
  'users.disable': {
    en: 'Disable {name}',
    tr: '{name} kullanıcısını devre dışı bırak',
  },
  'users.disable_button': {
    en: 'Disable',
    tr: 'Devre dışı bırak',
  },
  'users.invite_title': {
    en: 'Invite a colleague',
    tr: 'Bir çalışma arkadaşınızı davet edin',
  },
  'users.room': {
    en: 'Users who are not disabled: {used} of at most {max}. You can invite {left} more.',
    tr: 'Devre dışı olmayan kullanıcılar: {used} / en fazla {max}. {left} kişi daha davet edebilirsiniz.',
  },
  'users.room_full': {
    en: 'Users who are not disabled: {used} of at most {max}. To invite someone, first disable enough users to make room, or ask the service operator to raise the limit.',
    tr: 'Devre dışı olmayan kullanıcılar: {used} / en fazla {max}. Birini davet etmek için önce yer açacak kadar kullanıcıyı devre dışı bırakın ya da sınırı yükseltmesi için hizmet operatörüne başvurun.',
  },
  'users.invite': {
    en: 'Send invitation',
    tr: 'Davet gönder',
  },
  'users.invite_link': {
    en: 'Give it to them yourself: it works once, for 72 hours, and is shown only now.',
    tr: 'Bağlantıyı kendiniz iletin: bir kez ve 72 saat boyunca çalışır, yalnızca şimdi gösterilir.',
  },
  'users.invite_link_title': {
    en: 'Invitation link for {email}',
    tr: '{email} için davet bağlantısı',
  },
  'users.reset_link_title': {
    en: 'New sign-in link for {email}',
    tr: '{email} için yeni giriş bağlantısı',
  },
  'users.new_link': {
    en: 'New link',
    tr: 'Yeni bağlantı',
  },
  'users.new_link_for': {
    en: 'New sign-in link for {name}',
    tr: '{name} için yeni giriş bağlantısı',
  },
  'users.disabled_done': {
    en: '{name} is disabled and signed out everywhere.',
    tr: '{name} devre dışı bırakıldı ve her yerde oturumu kapatıldı.',
  },
  'users.name_missing': {
    en: 'Enter the colleague’s name.',
    tr: 'Çalışma arkadaşınızın adını girin.',
  },
  'users.copy': {
    en: 'Copy link',
    tr: 'Bağlantıyı kopyala',
  },
  'users.refused': {
    en: 'This could not be done. Reload the page and try again.',
    tr: 'Bu işlem yapılamadı. Sayfayı yenileyip yeniden deneyin.',
  },
  'users.new_invitation_for': {
    en: 'New invitation link for {name}',
    tr: '{name} için yeni davet bağlantısı',
  },
});
