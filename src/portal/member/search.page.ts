/**
 * GET /portal/search: the form (a GET, so it works without script and can be bookmarked) and
 * the API's answer rendered for people: threat level, reports with their fields, near matches
 * with a tax-ID search to confirm (D25), refusals in words, the allowances left: the user's and
 * its member's (D28 amended).
 */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { Allowance } from '../../quota/allowance.ts';
import { remainingOf } from '../../quota/allowance.ts';
import type { SearchResponse } from '../../search/answer-search.ts';
import type { CompanyResult, NearMatch } from '../../search/search.service.ts';
import type { ReportView } from '../../reports/report-view.ts';
import type { PortalSearchOutcome } from '../../search/portal-search.service.ts';
import { MESSAGES } from '../messages/index.ts';
import { problemText } from '../problem-text.ts';
import { notice } from './page-parts.ts';
import { watchButton, watchingMark } from './watchlist.page.ts';
import { memberText, type MemberText, type MemberTextKey } from './text.ts';

export interface SearchPageModel {
  form: { q: string; type: string; country: string };
  countries: ReadonlyArray<{ code: string; name: string }>;
  /** The user's own allowance. */
  allowance: Allowance;
  /** The member's, all its users together (D28 amended). */
  memberAllowance: Allowance;
  /** Null when no search was asked for. */
  outcome: PortalSearchOutcome | null;
  /** Set when the member may not search at all (D17's rule), before any search. */
  blocked: string | null;
  /** A search was asked for by a link from another site (or a HEAD): shown, not run. */
  notRun: boolean;
  /** The results this member watches, as `country:tax_id` of the shown tax ID's canonical form. */
  watched: ReadonlySet<string>;
  /** Canonical form of a shown tax ID (D9), to look it up in `watched`; null when it has none. */
  canonical?: (country: string, taxId: string) => string | null;
}

function searchForm(t: MemberText, model: SearchPageModel): Html {
  const { form } = model;
  return html`<form method="get" action="/portal/search" class="search-form" role="search">
    <div class="field field-wide">
      <label for="q">${t('search.q')}</label><input id="q" name="q" type="search" value="${form.q}" minlength="3" maxlength="100" required autocomplete="off" />
    </div>
    <div class="field">
      <label for="type">${t('search.type')}</label
      ><select id="type" name="type">
        <option value="name" ${form.type !== 'tax_id' ? ' selected' : ''}>${t('search.type_name')}</option>
        <option value="tax_id" ${form.type === 'tax_id' ? ' selected' : ''}>${t('search.type_tax_id')}</option>
      </select>
    </div>
    <div class="field">
      <label for="country">${t('search.country')}</label
      ><select id="country" name="country">
        <option value="">${t('search.any_country')}</option>
        ${model.countries.map((c) => html`<option value="${c.code}" ${c.code === form.country ? ' selected' : ''}>${c.code} — ${c.name}</option>`)}
      </select>
    </div>
    <div class="field field-button"><button type="submit">${t('search.submit')}</button></div>
  </form>`;
}

function money(amount: number, currency: string, locale: string): string {
  return `${new Intl.NumberFormat(locale === 'tr' ? 'tr-TR' : 'en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
}

/** D14's type-specific fields as `name: value` pairs, in the API's names. */
function reportDetails(report: ReportView): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (report.court_decision_date) pairs.push(['court_decision_date', report.court_decision_date]);
  if (report.concordat_start) pairs.push(['concordat_start', report.concordat_start]);
  if (report.concordat_end) pairs.push(['concordat_end', report.concordat_end]);
  for (const [name, value] of Object.entries(report.case ?? {})) pairs.push([name, value]);
  return pairs;
}

/** D14's field names in words; the API's name where the catalogue has none. */
function fieldLabel(t: MemberText, name: string): string {
  const key = `search.field.${name}`;
  return key in MESSAGES ? t(key as MemberTextKey) : name;
}

function typeLabel(t: MemberText, type: string): string {
  const key = `search.type.${type}`;
  return key in MESSAGES ? t(key as MemberTextKey) : type;
}

function reportRow(t: MemberText, locale: string, report: ReportView): Html {
  const details = reportDetails(report);
  return html`<tr>
    <td>
      ${typeLabel(t, report.type)}<br /><span class="muted small"
        >${report.official ? t('search.official') : t('search.claim')} · <span class="mono">${report.type}</span></span
      >
    </td>
    <td class="nowrap">${report.filed_at.slice(0, 10)}<br /><span class="muted small">${report.filed_at.slice(11)}</span></td>
    <td class="num">${report.amount !== undefined && report.currency ? money(report.amount, report.currency, locale) : '—'}</td>
    <td>
      ${
        details.length
          ? html`<dl class="inline">
              ${details.map(
                ([k, v]) =>
                  html`<dt>${fieldLabel(t, k)}</dt>
                    <dd>${v}</dd>`,
              )}
            </dl>`
          : ''
      }
      <p class="description">${report.description}</p>
      ${report.disputed ? html`<p class="badge disputed">${t('disputes.search.disputed')}</p>` : ''}
      ${report.statement ? html`<p class="statement"><strong>${t('disputes.search.statement')}:</strong> ${report.statement}</p>` : ''}
    </td>
  </tr>`;
}

function companyCard(ctx: PortalContext, watched: boolean, company: CompanyResult): Html {
  const t = memberText(ctx.locale);
  const locale = ctx.locale;
  const threat = company.threat_level === 'high' ? t('search.threat_high') : t('search.threat_normal');
  return html`<article class="company">
    <h3>${company.company_name}</h3>
    <dl class="facts">
      <dt>${t('search.threat')}</dt>
      <dd><span class="badge badge-${company.threat_level}">${threat}</span></dd>
      <dt>${t('search.reports')}</dt>
      <dd>${company.report_count}</dd>
      <dt>${t('search.tax_id')}</dt>
      <dd class="mono">${company.country} ${company.tax_id}</dd>
      <dt>${t('search.city')}</dt>
      <dd>${company.city}</dd>
      <dt>${t('search.last_updated')}</dt>
      <dd>${company.last_updated}</dd>
    </dl>
    ${watched ? watchingMark(ctx) : watchButton(ctx, company.country, company.tax_id, company.company_name)}
    <div class="table-scroll">
      <table class="data">
        <caption class="visually-hidden">
          ${t('search.reports')}: ${company.company_name}
        </caption>
        <thead>
          <tr>
            <th scope="col">${t('search.report_type')}</th>
            <th scope="col">${t('search.filed')}</th>
            <th scope="col">${t('search.amount')}</th>
            <th scope="col">${t('search.details')}</th>
          </tr>
        </thead>
        <tbody>
          ${company.reports.map((r) => reportRow(t, locale, r))}
        </tbody>
      </table>
    </div>
  </article>`;
}

function confirmLink(match: NearMatch): string {
  return `/portal/search?${new URLSearchParams({ q: match.tax_id, type: 'tax_id', country: match.country }).toString()}`;
}

/**
 * Near matches (D25) with a Watch button each, as exact results have: it carries the country and
 * tax ID the line already shows, so watching one tells nothing the line did not.
 */
function nearMatches(ctx: PortalContext, model: SearchPageModel, response: SearchResponse, matches: readonly NearMatch[]): Html {
  const t = memberText(ctx.locale);
  return html`<section class="near" aria-labelledby="near-title">
    <h2 id="near-title">${t('search.near_title', { q: response.query })}</h2>
    <p>${t('search.near_hint')}</p>
    <ul>
      ${matches.map(
        (m) =>
          html`<li>
            <strong>${m.company_name}</strong> — ${m.city}, <span class="mono">${m.country} ${m.tax_id}</span> · ${t('search.threat')}:
            ${m.threat_level === 'high' ? t('search.threat_high') : t('search.threat_normal')} · ${t('search.reports')}: ${m.report_count} ·
            ${t('search.similarity', { value: m.similarity.toFixed(2) })} · <a href="${confirmLink(m)}">${t('search.confirm')}</a>
            ${isWatched(model, m) ? watchingMark(ctx) : watchButton(ctx, m.country, m.tax_id, m.company_name)}
          </li>`,
      )}
    </ul>
  </section>`;
}

function answer(ctx: PortalContext, model: SearchPageModel, response: SearchResponse): Html {
  const t = memberText(ctx.locale);
  const q = response.query;
  const near = response.near_matches ?? [];
  const summary =
    response.result_count === 0
      ? near.length > 0
        ? ''
        : html`<p class="result-summary">${response.type === 'tax_id' ? t('search.none_tax_id', { q }) : t('search.none_name', { q })}</p>
            ${typedWatch(ctx, model, response)}`
      : html`<p class="result-summary">
          ${response.result_count === 1 ? t('search.result_one', { q }) : t('search.result_count', { q, count: response.result_count })}
        </p>`;
  return html`<section class="results" aria-live="polite">
    ${summary}${response.meta.truncated ? notice('info', t('search.truncated')) : ''} ${near.length > 0 ? nearMatches(ctx, model, response, near) : ''}
    ${response.results.map((c) => companyCard(ctx, isWatched(model, c), c))}
  </section>`;
}

/**
 * On a tax-ID search that found nothing: watch the typed tax ID anyway, to hear when it appears.
 * It tells nothing the answer did not: the page has just said that nothing is shown for it.
 */
function typedWatch(ctx: PortalContext, model: SearchPageModel, response: SearchResponse): Html | string {
  if (response.type !== 'tax_id' || response.country === null) return '';
  const canonical = model.canonical?.(response.country, response.query) ?? null;
  if (canonical === null) return '';
  if (model.watched.has(`${response.country}:${canonical}`)) return watchingMark(ctx);
  return watchButton(ctx, response.country, response.query, `${response.country} ${response.query}`);
}

function isWatched(model: SearchPageModel, company: { country: string; tax_id: string }): boolean {
  const canonical = model.canonical?.(company.country, company.tax_id) ?? company.tax_id;
  return model.watched.has(`${company.country}:${canonical}`);
}

export function refusalText(t: MemberText, reason: string, limit: number): string {
  const key = `search.reason.${reason}`;
  return key in MESSAGES ? t(key as MemberTextKey, { limit }) : t('search.refused');
}

/**
 * What exactly was wrong with a refused search (400), in the page's language; the API's English
 * words, marked as English, where the refusal has no problem to word.
 */
function refusalDetail(ctx: PortalContext, outcome: Extract<PortalSearchOutcome, { kind: 'refused' }>): Html | string {
  if (outcome.status !== 400) return '';
  if (outcome.problem) return html` <span class="muted">(${problemText(ctx.locale, outcome.problem, outcome.message)})</span>`;
  return html` <span class="muted" lang="en">(${outcome.message})</span>`;
}

export function searchBody(ctx: PortalContext, model: SearchPageModel): Html {
  const t = memberText(ctx.locale);
  const { outcome, allowance, memberAllowance } = model;
  const left = html`<p class="allowance">${t('search.allowance', { remaining: remainingOf(allowance), limit: allowance.limit })}</p>
    <p class="allowance">${t('search.member_allowance', { remaining: remainingOf(memberAllowance), limit: memberAllowance.limit })}</p>`;
  if (model.blocked) {
    return html`${notice('error', html`<strong>${t('search.cannot_search')}</strong> ${model.blocked}`)}`;
  }
  const result =
    outcome === null
      ? model.notRun
        ? notice('info', t('search.not_run'))
        : ''
      : outcome.kind === 'answered'
        ? answer(ctx, model, outcome.response)
        : notice(
            'error',
            html`<strong>${t('search.refused')}:</strong>
              ${
                outcome.limitedBy === 'member'
                  ? t('search.member_rate_limited', { limit: memberAllowance.limit })
                  : refusalText(t, outcome.reason, allowance.limit)
              }${refusalDetail(ctx, outcome)}`,
          );
  return html`${searchForm(t, model)} ${left} ${result}`;
}
