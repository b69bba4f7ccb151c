/** Texts of signing in and out and of accepting an invitation or reset link. */
import { defineMessages } from './define.ts';

export const authMessages = defineMessages({
  'auth.signIn.title': { en: 'Sign in', tr: 'Oturum aç' },
  'auth.signIn.intro': { en: 'Sign in with the email your invitation was sent to.', tr: 'Davetinizin gönderildiği e-posta adresiyle oturum açın.' },
  'auth.email': { en: 'Email', tr: 'E-posta' },
  'auth.password': { en: 'Password', tr: 'Parola' },
  'auth.code': { en: 'Authenticator code (operators only)', tr: 'Doğrulama kodu (yalnızca operatörler)' },
  'auth.code.hint': { en: 'The 6-digit code your authenticator app shows now.', tr: 'Doğrulama uygulamanızın şu an gösterdiği 6 haneli kod.' },
  'auth.signIn.submit': { en: 'Sign in', tr: 'Oturum aç' },
  'auth.signIn.failed': {
    en: "Sign-in failed. Check your email, password and (operators) the code. If your member's access has been suspended, contact the service operator.",
    tr: 'Oturum açılamadı. E-posta, parola ve (operatörler için) kodu kontrol edin. Üyeliğinizin erişimi askıya alındıysa hizmet operatörüyle iletişime geçin.',
  },
  'auth.signIn.throttled': {
    en: 'Too many failed sign-ins lately for this account, or from this network, in browsers that have not signed in to it before. Wait {wait} and try again, or sign in from a browser you have signed in with before.',
    tr: 'Son zamanlarda bu hesap için ya da bu ağdan, daha önce bu hesapla oturum açılmamış tarayıcılarda çok sayıda başarısız oturum açma denemesi oldu. {wait} bekleyip tekrar deneyin ya da daha önce oturum açtığınız bir tarayıcıdan girin.',
  },
  'auth.wait.seconds': { en: '{n} seconds', tr: '{n} saniye' },
  'auth.wait.minutes': { en: '{n} minutes', tr: '{n} dakika' },
  'auth.signIn.expired': { en: 'Your session has ended. Please sign in again.', tr: 'Oturumunuz sona erdi. Lütfen yeniden oturum açın.' },
  'auth.signIn.forgot': {
    en: 'Forgot your password? Ask your member administrator or the operator for a reset link.',
    tr: 'Parolanızı mı unuttunuz? Üye yöneticinizden ya da operatörden sıfırlama bağlantısı isteyin.',
  },
  'auth.signedOut': { en: 'You have signed out.', tr: 'Oturumunuz kapatıldı.' },
  'auth.accept.invite.title': { en: 'Accept your invitation', tr: 'Davetinizi kabul edin' },
  'auth.accept.reset.title': { en: 'Set a new password', tr: 'Yeni parola belirleyin' },
  'auth.accept.intro': { en: 'Account: {email}', tr: 'Hesap: {email}' },
  'auth.accept.name': { en: 'Your name', tr: 'Adınız' },
  'auth.accept.password': { en: 'New password (at least 12 characters)', tr: 'Yeni parola (en az 12 karakter)' },
  'auth.accept.passwordAgain': { en: 'New password again', tr: 'Yeni parola (tekrar)' },
  'auth.accept.mismatch': { en: 'The two passwords differ.', tr: 'İki parola birbirinden farklı.' },
  'auth.accept.submit': { en: 'Save and sign in', tr: 'Kaydet ve oturum aç' },
  'auth.accept.invalid.title': { en: 'This link does not work', tr: 'Bu bağlantı çalışmıyor' },
  'auth.accept.invalid.text': {
    en: 'It has expired (links work for 72 hours), was used already, or was replaced by a newer one. Ask for a new link.',
    tr: 'Süresi dolmuş (bağlantılar 72 saat geçerlidir), daha önce kullanılmış ya da yenisiyle değiştirilmiş. Yeni bir bağlantı isteyin.',
  },
  'auth.totp.heading': { en: 'Second factor (authenticator app)', tr: 'İkinci doğrulama (doğrulama uygulaması)' },
  'auth.totp.intro': {
    en: 'Operators sign in with a code from an authenticator app (TOTP). Add this account to your app with the secret key or the otpauth link below, then type the code it shows.',
    tr: 'Operatörler bir doğrulama uygulamasının (TOTP) ürettiği kodla oturum açar. Aşağıdaki gizli anahtarı ya da otpauth bağlantısını uygulamanıza ekleyin, ardından uygulamanın gösterdiği kodu yazın.',
  },
  'auth.totp.secret': { en: 'Secret key', tr: 'Gizli anahtar' },
  'auth.totp.uri': { en: 'otpauth link', tr: 'otpauth bağlantısı' },
  'auth.totp.code': { en: 'Code from the app', tr: 'Uygulamadaki kod' },
  'auth.copy': { en: 'Copy', tr: 'Kopyala' },
  'auth.copied': { en: 'Copied', tr: 'Kopyalandı' },
});
