/**
 * Why a filing or a step on a report is refused (D29, D30), by problem code (src/lib/problems.ts):
 * who may file and how much, who may act, the report's status. `{status}`, `{step}` and the
 * like are filled in words (problem-text.ts).
 */
import { defineMessages } from './define.ts';

export const reportProblemMessages = defineMessages({
  'problem.filing.no_member': { en: 'Your account belongs to no member.', tr: 'Hesabınız hiçbir üyeye bağlı değil.' },
  'problem.filing.member_not_active': {
    en: 'Your membership is {memberStatus}: only an active member can file reports.',
    tr: 'Üyeliğiniz {memberStatus}: yalnızca etkin üyeler bildirim yapabilir.',
  },
  'problem.filing.member_not_full': {
    en: 'Only full members can file reports; your membership is associate.',
    tr: 'Yalnızca asil üyeler bildirim yapabilir; üyeliğiniz ortak üyelik.',
  },
  'problem.filing.agreement_unsigned': {
    en: "Your member's data agreement must be signed before filing reports.",
    tr: 'Bildirim yapabilmek için önce üyenizin veri sözleşmesi imzalanmalı.',
  },
  'problem.filing.daily_limit': {
    en: 'Your member has filed {limit} reports today, the most a member may file in a day: file again after 00:00 Turkey time ({day}).',
    tr: 'Üyeniz bugün {limit} bildirim yaptı; bir üye bir günde en fazla bu kadar bildirim yapabilir. Türkiye saatiyle 00:00’dan sonra ({day}) yeniden bildirim yapabilirsiniz.',
  },
  'problem.filing.open_claim_exists': {
    en: 'Your member already has a pending or approved unpaid-debt report on this company: withdraw it before filing another.',
    tr: 'Üyenizin bu şirket hakkında bekleyen ya da onaylanmış bir ödenmemiş alacak bildirimi zaten var: yenisini yapmadan önce onu geri çekin.',
  },
  'problem.filing.duplicate': {
    en: 'Your member already has a pending or approved report of this type on this company with the same event date (and case number): it was filed already.',
    tr: 'Üyenizin bu şirket hakkında aynı türde, aynı olay tarihli (ve aynı dosya numaralı) bekleyen ya da onaylanmış bir bildirimi zaten var: bu bildirim daha önce yapılmış.',
  },
  'problem.actor.not_operator': { en: 'Only an active operator may do this.', tr: 'Bunu yalnızca etkin bir operatör yapabilir.' },
  'problem.actor.not_member_user': {
    en: "Only an active user of the member may act on the member's reports.",
    tr: 'Üyenin bildirimleri üzerinde yalnızca üyenin etkin bir kullanıcısı işlem yapabilir.',
  },
  'problem.report.not_found': { en: 'There is no report {id}.', tr: '{id} numaralı bildirim yok.' },
  'problem.report.not_found_for_member': {
    en: "There is no report {id} among your member's reports.",
    tr: 'Üyenizin bildirimleri arasında {id} numaralı bildirim yok.',
  },
  'problem.report.operator_only': {
    en: 'Only an operator may take this step ({step}).',
    tr: 'Bu adımı ({step}) yalnızca bir operatör atabilir.',
  },
  'problem.report.member_only': {
    en: 'Only the filing member may take this step ({step}) on its report.',
    tr: 'Bu adımı ({step}) yalnızca bildirimi yapan üye atabilir.',
  },
  'problem.report.status_final': {
    en: 'Report {id} is “{status}”, which is final: no {step} is possible.',
    tr: '{id} numaralı bildirimin durumu “{status}” ve bu son durumdur: {step} yapılamaz.',
  },
  'problem.report.status_not_allowed': {
    en: 'Report {id} is “{status}”: this step ({step}) is only for a report that is {statuses}.',
    tr: '{id} numaralı bildirimin durumu “{status}”: bu adım ({step}) yalnızca {statuses} durumundaki bildirimlere uygulanır.',
  },
  'problem.report.reason_required': {
    en: 'A reason is required for this step ({step}): say why.',
    tr: 'Bu adım ({step}) için gerekçe zorunludur: nedenini yazın.',
  },
  'problem.report.note_required': {
    en: 'A note is required to withdraw a report: say why.',
    tr: 'Bildirimi geri çekmek için not zorunludur: nedenini yazın.',
  },
  'problem.report.reason_too_long': { en: 'The reason is longer than {max} characters.', tr: 'Gerekçe en çok {max} karakter olabilir.' },
  'problem.report.note_too_long': { en: 'The note is longer than {max} characters.', tr: 'Not en çok {max} karakter olabilir.' },
  'problem.report.changed_meanwhile': {
    en: 'Report {id} was changed meanwhile (it is now “{status}”): reload and look again.',
    tr: '{id} numaralı bildirim bu arada değişti (şimdiki durumu “{status}”): sayfayı yenileyip yeniden bakın.',
  },
  'problem.report.status_unknown': {
    en: 'Unknown status “{value}”: use pending, approved, rejected, withdrawn or deactivated.',
    tr: 'Bilinmeyen durum “{value}”: pending, approved, rejected, withdrawn ya da deactivated kullanın.',
  },
  'problem.report.not_found_by_ref': { en: 'There is no report with the id or ref “{ref}”.', tr: '“{ref}” numaralı ya da referanslı bildirim yok.' },
  'problem.report.transition_refused': {
    en: 'Report {id} is “{from}” and cannot become “{to}”.',
    tr: '{id} numaralı bildirimin durumu “{from}”; “{to}” durumuna geçemez.',
  },
  'problem.report.portal_withdraw_only': {
    en: 'Report {id} was filed through the portal: only its filing member may withdraw it; deactivate it with a reason instead.',
    tr: '{id} numaralı bildirim portaldan yapıldı: yalnızca bildiren üye geri çekebilir; bunun yerine gerekçe yazarak kaldırın.',
  },
  'problem.company.not_found': { en: 'There is no company {id}.', tr: '{id} numaralı şirket yok.' },
  'problem.company.not_found_by_tax_id': {
    en: 'There is no company with the tax ID {taxId} in {country}.',
    tr: '{country} ülkesinde {taxId} vergi numaralı şirket yok.',
  },
});
