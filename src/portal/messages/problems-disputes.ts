/**
 * Why a step on a dispute by the reported company is refused (D33), by problem code
 * (src/lib/problems.ts), and the words its values are put in (fields, steps).
 */
import { defineMessages } from './define.ts';

export const disputeProblemMessages = defineMessages({
  'word.field.identification_reference': { en: 'Identification reference', tr: 'Kimlik doğrulama referansı' },
  'word.field.grounds': { en: 'Grounds', tr: 'İtiraz gerekçesi' },
  'word.field.support_text': { en: 'Your support', tr: 'Destek açıklamanız' },
  'word.field.decision_reason': { en: 'Reason for the decision', tr: 'Karar gerekçesi' },
  'word.field.statement': { en: "The company's statement", tr: 'Şirketin açıklaması' },
  'word.field.case': { en: 'Case details', tr: 'Dosya bilgileri' },
  'word.step.record': { en: 'recording', tr: 'kayıt' },
  'word.step.support': { en: 'support', tr: 'destekleme' },
  'word.step.lapse': { en: 'lapse', tr: 'süre aşımı' },
  'word.step.decide': { en: 'decision', tr: 'karar' },
  'word.step.set_statement': { en: "adding the company's statement", tr: 'şirketin açıklamasını ekleme' },
  'problem.dispute.not_found': { en: 'There is no dispute {id}.', tr: '{id} numaralı itiraz yok.' },
  'problem.dispute.changed_meanwhile': {
    en: 'Dispute {id} was changed meanwhile by someone else: reload the page and look again.',
    tr: '{id} numaralı itiraz bu arada başka biri tarafından değiştirildi: sayfayı yenileyip yeniden bakın.',
  },
  'problem.dispute.report_changed_meanwhile': {
    en: 'Report {id} was changed meanwhile (it is now {status}): reload the page and look again.',
    tr: '{id} numaralı bildirim bu arada değişti (şimdi {status}): sayfayı yenileyip yeniden bakın.',
  },
  'problem.dispute.operator_only': { en: 'Only an operator may take this step ({step}).', tr: 'Bu adımı ({step}) yalnızca bir operatör atabilir.' },
  'problem.dispute.member_only': {
    en: 'Only the member that filed the report may take this step ({step}).',
    tr: 'Bu adımı ({step}) yalnızca bildirimi yapan üye atabilir.',
  },
  'problem.dispute.system_only': {
    en: 'An unsupported claim lapses by itself when its 15 days are over; nobody takes this step ({step}) by hand.',
    tr: 'Desteklenmeyen bildirim 15 günlük süre dolunca kendiliğinden düşer; bu adım ({step}) elle atılmaz.',
  },
  'problem.dispute.not_found_for_member': {
    en: "No dispute {id} concerns your member's reports.",
    tr: '{id} numaralı itiraz üyenizin bildirimleriyle ilgili değil.',
  },
  'problem.dispute.report_not_found_for_member': {
    en: 'Dispute {id} holds no report {report} of your member.',
    tr: '{id} numaralı itirazda üyenizin {report} numaralı bir bildirimi yok.',
  },
  'problem.dispute.decided': { en: 'Dispute {id} is decided: it cannot change any more.', tr: '{id} numaralı itiraz karara bağlandı: artık değiştirilemez.' },
  'problem.dispute.not_awaiting_member': {
    en: "Dispute {id} is not waiting for a member's answer.",
    tr: '{id} numaralı itirazda bir üyenin yanıtı beklenmiyor.',
  },
  'problem.dispute.statement_needs_upheld': {
    en: 'Dispute {id} was not decided “record upheld”: only then may the company add a statement.',
    tr: '{id} numaralı itiraz “kayıt korundu” olarak karara bağlanmadı: şirket ancak bu durumda açıklama ekleyebilir.',
  },
  'problem.dispute.already_answered': {
    en: 'Report {report} was answered already in this dispute.',
    tr: '{report} numaralı bildirim için bu itirazda zaten yanıt verildi.',
  },
  'problem.dispute.member_deadline_passed': {
    en: 'The time to support the report ended on {dueOn}.',
    tr: 'Bildirimi destekleme süresi {dueOn} tarihinde sona erdi.',
  },
  'problem.dispute.member_deadline_not_passed': { en: 'The member may answer until {dueOn}.', tr: 'Üye {dueOn} tarihine kadar yanıt verebilir.' },
  'problem.dispute.identification_method': {
    en: 'Choose how the company’s representative was identified: KEP, e-signature or notarised letter (“{value}” is none of them).',
    tr: 'Şirket temsilcisinin kimliğinin nasıl doğrulandığını seçin: KEP, e-imza ya da noter onaylı yazı (“{value}” bunlardan biri değil).',
  },
  'problem.dispute.no_reports': { en: 'Name at least one report the company disputes.', tr: 'Şirketin itiraz ettiği en az bir bildirimi belirtin.' },
  'problem.dispute.too_many_reports': {
    en: 'A dispute holds at most {max} reports; {count} were given: record several disputes.',
    tr: 'Bir itiraz en çok {max} bildirim içerebilir; {count} bildirim verildi: birkaç ayrı itiraz kaydedin.',
  },
  'problem.dispute.report_of_other_company': {
    en: 'Report {id} is about another company: record one dispute per company.',
    tr: '{id} numaralı bildirim başka bir şirketle ilgili: her şirket için ayrı itiraz kaydedin.',
  },
  'problem.dispute.report_not_disputable': {
    en: 'Report {id} is “{status}”: it is no longer shown, and only a pending or approved report can be disputed.',
    tr: '{id} numaralı bildirimin durumu “{status}”: artık gösterilmiyor; yalnızca bekleyen ya da onaylanmış bir bildirime itiraz edilebilir.',
  },
  'problem.dispute.report_already_disputed': {
    en: "Report {id} is in dispute {dispute} already: add this request to that dispute's file.",
    tr: '{id} numaralı bildirim zaten {dispute} numaralı itirazda: bu başvuruyu o itirazın dosyasına ekleyin.',
  },
  'problem.dispute.received_on_invalid': {
    en: 'The day the request was received must be a date YYYY-MM-DD; “{value}” is not.',
    tr: 'Başvurunun alındığı gün YYYY-AA-GG biçiminde bir tarih olmalı; “{value}” geçerli bir tarih değil.',
  },
  'problem.dispute.received_on_future': {
    en: 'The request cannot have been received on {date}, after today ({today}).',
    tr: 'Başvuru bugünden ({today}) sonra, {date} tarihinde alınmış olamaz.',
  },
  'problem.dispute.received_on_too_early': {
    en: 'The request was received on {date}, before {min}: check the year.',
    tr: 'Başvurunun alındığı tarih ({date}) {min} tarihinden önce: yılı kontrol edin.',
  },
  'problem.dispute.outcome_invalid': {
    en: 'Choose the outcome: record upheld, corrected or removed (“{value}” is none of them).',
    tr: 'Sonucu seçin: kayıt korundu, düzeltildi ya da kaldırıldı (“{value}” bunlardan biri değil).',
  },
  'problem.dispute.correction_required': {
    en: 'A “corrected” decision needs the correction: which report, which fields.',
    tr: '“Düzeltildi” kararı için düzeltme gerekir: hangi bildirim, hangi alanlar.',
  },
  'problem.dispute.correction_not_allowed': {
    en: 'A correction is kept only with the outcome “corrected”.',
    tr: 'Düzeltme yalnızca “düzeltildi” sonucuyla birlikte kaydedilir.',
  },
  'problem.dispute.correction_empty': {
    en: 'The correction of report {report} changes nothing.',
    tr: '{report} numaralı bildirimin düzeltmesi hiçbir şeyi değiştirmiyor.',
  },
  'problem.dispute.correction_field_unknown': {
    en: '{field} cannot be corrected; these can: {fields}.',
    tr: '{field} düzeltilemez; düzeltilebilen alanlar: {fields}.',
  },
  'problem.dispute.correction_report_unknown': {
    en: 'Report {report} is not in dispute {id}.',
    tr: '{report} numaralı bildirim {id} numaralı itirazda değil.',
  },
  'problem.dispute.correction_twice': {
    en: 'Report {report} is corrected twice: give one correction per report.',
    tr: '{report} numaralı bildirim iki kez düzeltiliyor: her bildirim için tek bir düzeltme verin.',
  },
});
