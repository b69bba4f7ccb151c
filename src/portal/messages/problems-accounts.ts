/**
 * Why a step on an account, a member, a key or the agreement is refused (D27, D28, D30), by
 * problem code (src/lib/problems.ts). The `member_users` ones are what a member_admin sees: they
 * never name another account.
 */
import { defineMessages } from './define.ts';

export const accountProblemMessages = defineMessages({
  'problem.user.email_invalid': {
    en: '“{email}” is not an email address such as ayse@example.com.',
    tr: '“{email}” ayse@example.com gibi bir e-posta adresi değil.',
  },
  'problem.user.name_invalid': { en: 'The name must be 1 to {max} characters.', tr: 'Ad 1 ile {max} karakter arasında olmalı.' },
  'problem.user.role_invalid': { en: 'The role must be one of {roles}.', tr: 'Rol şunlardan biri olmalı: {roles}.' },
  'problem.user.operator_has_no_member': {
    en: 'An operator belongs to no member: leave the member empty.',
    tr: 'Operatör hiçbir üyeye bağlı değildir: üye alanını boş bırakın.',
  },
  'problem.user.member_required': {
    en: "A {role} belongs to a member: give the member's ref.",
    tr: '{role} rolündeki kullanıcı bir üyeye bağlıdır: üye numarasını girin.',
  },
  'problem.user.member_not_active': {
    en: 'Member {member} is {memberStatus}: its users cannot sign in.',
    tr: '{member} üyesi {memberStatus}: kullanıcıları oturum açamaz.',
  },
  'problem.user.not_found': { en: 'There is no user with the email {email}.', tr: '{email} e-posta adresli kullanıcı yok.' },
  'problem.user.disabled': { en: 'User {email} is disabled.', tr: '{email} kullanıcısı devre dışı.' },
  'problem.user.link_invalid': {
    en: 'This link does not work: it has expired, was used already or was replaced by a newer one. Ask for a new link.',
    tr: 'Bu bağlantı çalışmıyor: süresi dolmuş, kullanılmış ya da yerine daha yenisi gönderilmiş. Yeni bir bağlantı isteyin.',
  },
  'problem.user.totp_wrong': {
    en: 'The authenticator code is not right: add the secret to your app and type the code it shows now.',
    tr: 'Doğrulama kodu doğru değil: gizli anahtarı uygulamanıza ekleyin ve şu anda gösterdiği kodu yazın.',
  },
  'problem.user.email_taken': {
    en: 'A user with the email {email} already exists: send a new link with “Reset link”.',
    tr: '{email} e-posta adresli bir kullanıcı zaten var: yeni bağlantıyı “Sıfırlama bağlantısı” ile gönderin.',
  },
  'problem.user.password_too_short': { en: 'The password must be at least {min} characters.', tr: 'Parola en az {min} karakter olmalı.' },
  'problem.user.password_too_long': { en: 'The password must be at most {max} characters.', tr: 'Parola en çok {max} karakter olabilir.' },
  'problem.user.password_blank': {
    en: 'The password is only white space. Choose words or characters you will remember, such as a few unrelated words.',
    tr: 'Parola yalnızca boşluktan oluşuyor. Aklınızda kalacak sözcükler ya da karakterler seçin, örneğin birbiriyle ilgisiz birkaç sözcük.',
  },
  'problem.user.password_repeated': {
    en: 'The password is one character repeated, which anyone would guess first. Choose a few unrelated words instead.',
    tr: 'Parola tek bir karakterin tekrarından oluşuyor; herkesin ilk deneyeceği şey budur. Bunun yerine birbiriyle ilgisiz birkaç sözcük seçin.',
  },
  'problem.user.password_breached': {
    en: 'The password is on a list of passwords found in data breaches, which attackers try first (capital letters do not change that). Choose another, such as a few unrelated words.',
    tr: 'Parola, veri sızıntılarında ortaya çıkmış ve saldırganların ilk denediği parolalar listesinde (büyük harf kullanmak bunu değiştirmez). Başka bir parola seçin, örneğin birbiriyle ilgisiz birkaç sözcük.',
  },
  'problem.operator.step_up_required': {
    en: 'Confirm this action with your password and a new code from your authenticator app.',
    tr: 'Bu işlemi parolanız ve doğrulama uygulamanızdan yeni bir kodla onaylayın.',
  },
  'problem.member_users.role_invalid': {
    en: 'Choose the role: admin or user.',
    tr: 'Rolü seçin: yönetici ya da kullanıcı.',
  },
  'problem.member_users.member_not_active': {
    en: 'Your membership is not active: no one can be invited.',
    tr: 'Üyeliğiniz etkin değil: kimse davet edilemez.',
  },
  'problem.member_users.user_cap': {
    en: 'Your member already has {max} users who are not disabled, the most allowed. Disable one, or ask the service operator to raise the limit.',
    tr: 'Üyenizin devre dışı olmayan {max} kullanıcısı var, izin verilen en fazla sayı bu. Birini devre dışı bırakın ya da sınırı yükseltmesi için hizmet operatörüne başvurun.',
  },
  'problem.member_users.email_invalid': { en: 'Enter a valid email address.', tr: 'Geçerli bir e-posta adresi girin.' },
  'problem.member_users.invite_refused': {
    en: 'This address cannot be invited. If the person already has an account with another member, ask the service operator.',
    tr: 'Bu adres davet edilemez. Kişinin başka bir üyede zaten hesabı varsa hizmet operatörüne başvurun.',
  },
  'problem.member_users.invite_refusals_used_up': {
    en: "No more invitations today: your member's invitations were refused {max} times today (an address that already has an account cannot be invited). Try again after midnight Turkey time, or ask the service operator to invite the person.",
    tr: 'Bugün başka davet gönderilemez: üyenizin davetleri bugün {max} kez reddedildi (zaten hesabı olan bir adres davet edilemez). Türkiye saatiyle gece yarısından sonra yeniden deneyin ya da kişiyi davet etmesi için hizmet operatörüne başvurun.',
  },
  'problem.member_users.user_not_found': { en: 'There is no such user in your member.', tr: 'Üyenizde böyle bir kullanıcı yok.' },
  'problem.member_users.user_disabled': { en: 'This user is disabled.', tr: 'Bu kullanıcı devre dışı.' },
  'problem.member_users.reset_by_operator': {
    en: 'This colleague has already accepted the invitation. A password reset must come from the service operator.',
    tr: 'Bu çalışma arkadaşınız daveti zaten kabul etti. Parola sıfırlama hizmet operatöründen gelmelidir.',
  },
  'problem.member_users.self_disable': {
    en: 'You cannot disable your own account; ask another admin of your member.',
    tr: 'Kendi hesabınızı devre dışı bırakamazsınız; üyenizin başka bir yöneticisine başvurun.',
  },
  'problem.member.ref_invalid': {
    en: "Member ref “{ref}” is not valid: use 1 to 64 letters, digits, '.', '_' or '-'.",
    tr: "“{ref}” geçerli bir üye numarası değil: 1 ile 64 arasında harf, rakam, '.', '_' ya da '-' kullanın.",
  },
  'problem.member.name_empty': { en: 'The member name must not be empty.', tr: 'Üye adı boş olamaz.' },
  'problem.member.ref_taken': {
    en: 'Member {ref} already exists: change it in the members list.',
    tr: '{ref} üyesi zaten var: üye listesinden değiştirin.',
  },
  'problem.member.not_found': { en: 'There is no member with the ref “{ref}”.', tr: '“{ref}” numaralı üye yok.' },
  'problem.member.not_found_by_id': { en: 'There is no member {id}.', tr: '{id} kimlikli üye yok.' },
  'problem.member.daily_limit_range': {
    en: 'The daily limit must be a whole number from {min} to {max}.',
    tr: 'Günlük sınır {min} ile {max} arasında bir tam sayı olmalı.',
  },
  'problem.member.watchlist_cap_range': {
    en: 'The watchlist cap must be a whole number from 0 to {max}, or default; got “{value}”.',
    tr: 'İzleme listesi sınırı 0 ile {max} arasında bir tam sayı ya da default olmalı; girilen: “{value}”.',
  },
  'problem.key.daily_limit_invalid': {
    en: 'The daily limit must be a whole number of at least {min}.',
    tr: 'Günlük sınır en az {min} olan bir tam sayı olmalı.',
  },
  'problem.key.none_to_revoke': { en: 'Member {ref} has no active key to revoke.', tr: '{ref} üyesinin iptal edilecek etkin anahtarı yok.' },
  'problem.key.member_has_none': { en: 'The member has no active key to revoke.', tr: 'Üyenin iptal edilecek etkin anahtarı yok.' },
  'problem.key.member_not_active': {
    en: 'The membership is {memberStatus}: no key can be generated.',
    tr: 'Üyelik {memberStatus}: anahtar oluşturulamaz.',
  },
  'problem.agreement.admin_only': {
    en: "Only an active admin of this member may sign the member's data agreement.",
    tr: 'Üyenin veri sözleşmesini yalnızca bu üyenin etkin bir yöneticisi imzalayabilir.',
  },
  'problem.copy.target_not_empty': {
    en: 'The target {target} is not empty ({counts}): copying needs a new, empty database.',
    tr: 'Hedef {target} boş değil ({counts}): kopyalama için yeni, boş bir veritabanı gerekir.',
  },
});
