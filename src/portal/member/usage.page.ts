/** GET /portal/usage: the chart and, for screen readers and exact figures, the same numbers as a table (D28). */
import { dataTable } from '../components.ts';
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { UsageDay } from '../../quota/usage-series.ts';
import { renderUsageChart } from './usage-chart.ts';
import { memberText } from './text.ts';
import { paths } from '../paths.ts';

export function usageBody(ctx: PortalContext, series: readonly UsageDay[]): Html {
  const t = memberText(ctx.locale);
  const chart = renderUsageChart(series, { title: t('usage.chart_title'), description: t('usage.chart_desc'), api: t('usage.api'), portal: t('usage.portal') });
  const total = series.reduce((sum, d) => ({ api: sum.api + d.api, portal: sum.portal + d.portal }), { api: 0, portal: 0 });
  const rows = [...series].reverse().map(
    (d) =>
      html`<tr>
        <th scope="row">${d.day}</th>
        <td>${d.api}</td>
        <td>${d.portal}</td>
      </tr>`,
  );
  return html`<p>${t('usage.intro')}</p>
    <p><a href="${paths.usageCsv.href}" download>${t('usage.csv')}</a></p>
    <figure class="chart">${chart}</figure>
    ${dataTable({
      className: 'usage-table',
      caption: t('usage.table_caption'),
      columns: [t('usage.day'), t('usage.api'), t('usage.portal')],
      rows,
      foot: html`<tr>
        <th scope="row">${t('usage.total')}</th>
        <td>${total.api}</td>
        <td>${total.portal}</td>
      </tr>`,
      scroll: false,
    })}`;
}
