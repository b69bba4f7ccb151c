/**
 * What a refused step was refused for, as a stable code with the values its words need: D2's
 * reasons (errors.ts) say how a request failed, these say what was wrong. Every DomainError
 * carries at least one (an AppError may), beside the English message the API and the CLI print
 * unchanged; the portal words each code in its reader's language (src/portal/problem-text.ts),
 * so this table is the closed list its catalogue must cover (src/portal/problem-text.test.ts).
 *
 * Each code lists the names of its values. By convention the portal shows some of them in words:
 * `field` (a form field), `type`/`types` (report types), `status`/`statuses`/`from`/`to` (report
 * statuses), `memberStatus`, `step` (a moderation step), `caseFields` (D14 case fields), `range` (a
 * refused webhook address's range); the rest (numbers, names, what was typed) as they are. Lists
 * are comma-separated.
 */
export const PROBLEM_PARAMS = {
  // What a member types into "File a report" (filing-input.ts, report-fields.ts, attachments.ts).
  'field.required': ['field'],
  'field.too_long': ['field', 'max'],
  'field.control_characters': ['field'],
  'filing.company_name_no_letters': [],
  'country.unsupported': ['country'],
  'tax_id.invalid': ['value', 'country'],
  'filing.type_unknown': ['value', 'types'],
  'filing.event_date_invalid': ['value'],
  'filing.event_date_future': ['date', 'today'],
  'filing.event_date_too_early': ['date', 'min'],
  'filing.amount_not_number': ['value'],
  'filing.amount_too_large': ['max', 'digits', 'value'],
  'filing.claim_needs_amount': [],
  'report.amount_decimals': ['value'],
  'report.amount_needs_number': [],
  'report.currency_invalid': [],
  'report.date_invalid': ['field', 'value'],
  'report.case_required': ['type', 'caseFields'],
  'report.case_not_used': ['type'],
  'report.case_not_object': ['caseFields'],
  'report.case_field_unknown': ['field', 'type', 'caseFields'],
  'report.case_field_not_text': ['field'],
  'report.case_field_date': ['field'],
  'report.court_decision_date_not_used': ['type'],
  'report.court_decision_date_required': [],
  'report.concordat_dates_required': [],
  'report.concordat_end_before_start': [],
  'report.concordat_dates_not_used': [],
  'attachment.empty': ['file'],
  'attachment.too_large': ['file', 'max'],
  'attachment.windows_program': ['file'],
  'attachment.program': ['file'],
  'attachment.web_page': ['file'],
  'attachment.archive': ['file'],
  'attachment.not_allowed_type': ['file'],
  'attachment.wrong_extension': ['file', 'kind', 'extension'],
  'attachment.type_mismatch': ['file', 'declared', 'kind'],
  'attachment.too_many': ['max', 'count'],
  'attachment.not_found': ['id'],
  // Who may file, how much, and what is filed already (filing.service.ts, filing-rules.ts).
  'filing.no_member': [],
  'filing.member_not_active': ['memberStatus'],
  'filing.member_not_full': [],
  'filing.agreement_unsigned': [],
  'filing.daily_limit': ['limit', 'day'],
  'filing.open_claim_exists': [],
  'filing.duplicate': [],
  // Who acts, and the steps of a filed report (acting-user.ts, filing-rules.ts, moderation.service.ts).
  'actor.not_operator': [],
  'operator.step_up_required': [],
  'actor.not_member_user': [],
  'report.not_found': ['id'],
  'report.not_found_for_member': ['id'],
  'report.operator_only': ['step'],
  'report.member_only': ['step'],
  'report.status_final': ['id', 'status', 'step'],
  'report.status_not_allowed': ['id', 'status', 'statuses', 'step'],
  'report.reason_required': ['step'],
  'report.note_required': [],
  'report.reason_too_long': ['max'],
  'report.note_too_long': ['max'],
  'report.changed_meanwhile': ['id', 'status'],
  'report.status_unknown': ['value'],
  'report.not_found_by_ref': ['ref'],
  'report.transition_refused': ['id', 'from', 'to'],
  'report.portal_withdraw_only': ['id'],
  'company.not_found': ['id'],
  'company.not_found_by_tax_id': ['taxId', 'country'],
  // Accounts (users.service.ts, password.ts, users.repository.ts).
  'user.email_invalid': ['email'],
  'user.name_invalid': ['max'],
  'user.role_invalid': ['roles'],
  'user.operator_has_no_member': [],
  'user.member_required': ['role'],
  'user.member_not_active': ['member', 'memberStatus'],
  'user.not_found': ['email'],
  'user.disabled': ['email'],
  'user.link_invalid': [],
  'user.totp_wrong': [],
  'user.email_taken': ['email'],
  'user.password_too_short': ['min'],
  'user.password_too_long': ['max'],
  'user.password_blank': [],
  'user.password_repeated': [],
  'user.password_breached': [],
  // A member_admin's own users (member-users.service.ts): words that never name another account.
  'member_users.role_invalid': [],
  'member_users.member_not_active': [],
  'member_users.user_cap': ['max'],
  'member_users.email_invalid': [],
  'member_users.invite_refused': [],
  'member_users.invite_refusals_used_up': ['max'],
  'member_users.user_not_found': [],
  'member_users.user_disabled': [],
  'member_users.reset_by_operator': [],
  'member_users.self_disable': [],
  // Members, keys, the agreement (members.service.ts, keys.service.ts, member-key.service.ts, agreement.service.ts).
  'member.ref_invalid': ['ref'],
  'member.name_empty': [],
  'member.ref_taken': ['ref'],
  'member.not_found': ['ref'],
  'member.not_found_by_id': ['id'],
  'member.daily_limit_range': ['min', 'max'],
  'member.watchlist_cap_range': ['max', 'value'],
  'key.daily_limit_invalid': ['min'],
  'key.none_to_revoke': ['ref'],
  'key.member_has_none': [],
  'key.member_not_active': ['memberStatus'],
  'agreement.admin_only': [],
  'copy.target_not_empty': ['target', 'counts'],
  // A search's request (search-params.ts, portal-search.service.ts, search.service.ts) and the transport.
  'search.key_in_url': ['names'],
  'search.parameter_repeated': ['name', 'count'],
  'search.parameter_encoding': ['name'],
  'search.control_characters': [],
  'search.q_length': ['min', 'max'],
  'search.type_invalid': [],
  'search.country_unsupported': ['country'],
  'search.too_generic': ['q'],
  'request.uri_too_long': ['max'],
  'request.https_required': [],
  'request.body_not_allowed': ['method'],
  // Disputes by the reported company (D33; src/disputes/).
  'dispute.operator_only': ['step'],
  'dispute.member_only': ['step'],
  'dispute.system_only': ['step'],
  'dispute.not_found_for_member': ['id'],
  'dispute.report_not_found_for_member': ['id', 'report'],
  'dispute.decided': ['id'],
  'dispute.not_awaiting_member': ['id'],
  'dispute.statement_needs_upheld': ['id'],
  'dispute.already_answered': ['report'],
  'dispute.member_deadline_passed': ['dueOn'],
  'dispute.member_deadline_not_passed': ['dueOn'],
  'dispute.identification_method': ['value'],
  'dispute.no_reports': [],
  'dispute.too_many_reports': ['max', 'count'],
  'dispute.report_of_other_company': ['id'],
  'dispute.report_not_disputable': ['id', 'status'],
  'dispute.report_already_disputed': ['id', 'dispute'],
  'dispute.received_on_invalid': ['value'],
  'dispute.received_on_future': ['date', 'today'],
  'dispute.received_on_too_early': ['date', 'min'],
  'dispute.outcome_invalid': ['value'],
  'dispute.correction_required': [],
  'dispute.correction_not_allowed': [],
  'dispute.correction_empty': ['report'],
  'dispute.correction_field_unknown': ['field', 'fields'],
  'dispute.correction_report_unknown': ['report', 'id'],
  'dispute.correction_twice': ['report'],
  'dispute.not_found': ['id'],
  'dispute.changed_meanwhile': ['id'],
  'dispute.report_changed_meanwhile': ['id', 'status'],
  // Webhook endpoints and deliveries (D32; src/webhooks/webhook-rules.ts and the webhook services).
  'webhook.url_invalid': ['value'],
  'webhook.url_not_https': [],
  'webhook.url_credentials': [],
  'webhook.url_fragment': [],
  'webhook.url_too_long': ['max'],
  'webhook.address_refused': ['host'],
  'webhook.address_refusals_used_up': ['max', 'resets'],
  'webhook.endpoint_cap': ['max'],
  'webhook.url_taken': ['url'],
  'webhook.endpoint_not_found': ['id'],
  'webhook.admin_only': [],
  'webhook.endpoint_disabled': ['id'],
  'webhook.delivery_not_found': ['id'],
  'webhook.delivery_in_progress': ['id'],
  'webhook.manual_sends_used_up': ['max'],
  'watchlist.full': ['cap'],
} as const satisfies Record<string, readonly string[]>;

export type ProblemCode = keyof typeof PROBLEM_PARAMS;

type ParamsOf<C extends ProblemCode> = { readonly [P in (typeof PROBLEM_PARAMS)[C][number]]: string | number };

/** One thing wrong: its code and the values its words need (none for most). */
export type Problem = {
  [C in ProblemCode]: (typeof PROBLEM_PARAMS)[C] extends readonly []
    ? { readonly code: C; readonly params?: ParamsOf<C> }
    : { readonly code: C; readonly params: ParamsOf<C> };
}[ProblemCode];

/** A problem with its English words (what the API and the CLI print). */
export type StatedProblem = Problem & { readonly message: string };

export function stated(message: string, problem: Problem): StatedProblem {
  return { ...problem, message };
}
