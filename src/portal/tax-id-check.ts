/**
 * D9 as the member types (D29): the filing form's script asks GET /portal/reports/check-tax-id
 * after each pause in typing, and shows the answer under the field. The server runs the very
 * check the filing (and the API) runs, check digits included; the form is checked again on submit.
 */
import type { App } from '../http/app-type.ts';
import { portalQueryOf } from './portal-query.ts';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import { checkTaxId } from '../companies/tax-id.ts';
import { requireUser } from './guards.ts';
import { problemText } from './problem-text.ts';
import { paths } from './paths.ts';

export const TAX_ID_SCRIPT = `(function () {
  var input = document.getElementById('f-tax_id');
  var country = document.getElementById('f-country');
  var hint = document.getElementById('tax-id-hint');
  if (!input || !country || !hint || !window.fetch) return;
  var timer = null;
  function check() {
    var value = input.value.trim();
    if (value.length < 3) { hint.textContent = ''; return; }
    fetch('${paths.taxIdCheck.href}?country=' + encodeURIComponent(country.value) + '&tax_id=' + encodeURIComponent(value), { credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || input.value.trim() !== value) return;
        hint.textContent = body.valid ? '\\u2713 ' + body.id_type + ' ' + body.canonical : body.message;
        hint.className = body.valid ? 'hint ok' : 'hint error';
      })
      .catch(function () {});
  }
  input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(check, 250); });
  country.addEventListener('change', check);
})();
`;

export function registerTaxIdCheck(scope: App, countries: Pick<CountryCatalogue, 'get'>) {
  scope.get(paths.taxIdCheck.route, { preHandler: requireUser('member_admin', 'member_user') }, async (request, reply) => {
    // A parameter given twice never gets here (portal-query.ts refuses it with a page).
    const one = portalQueryOf(request);
    const locale = request.portalState.locale;
    reply.header('cache-control', 'no-store');
    const country = countries.get((one.country ?? '').trim().toUpperCase());
    if (!country) {
      const english = `country ${JSON.stringify(one.country ?? '')} is not a supported 2-letter country code`;
      return { valid: false, message: problemText(locale, { code: 'country.unsupported', params: { country: one.country ?? '' } }, english) };
    }
    const check = checkTaxId((one.tax_id ?? '').slice(0, 40), country);
    // The hint under the field, in the form's language.
    return check.valid
      ? { valid: true, canonical: check.canonical, id_type: check.idType }
      : { valid: false, message: problemText(locale, check.problem, check.message) };
  });
  scope.get(paths.taxIdCheckScript.route, { config: { portal: { session: false } } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/javascript; charset=utf-8').send(TAX_ID_SCRIPT),
  );
}
