/**
 * The usage chart (D28): an SVG bar chart drawn on the server, two bars a day (API, portal), no
 * script. The page puts the same numbers in a table beside it for screen readers; the chart
 * itself is one labelled image. Colours are SVG presentation attributes, not inline styles, so
 * the strict CSP allows them.
 */
import { html, type Html } from '../html.ts';
import type { UsageDay } from '../../quota/usage-series.ts';

export interface ChartLabels {
  title: string;
  description: string;
  api: string;
  portal: string;
}

const WIDTH = 760;
const HEIGHT = 280;
const LEFT = 48;
const RIGHT = 8;
const TOP = 28;
const BOTTOM = 36;
export const API_COLOUR = '#1f5f99';
export const PORTAL_COLOUR = '#d9822b';

/** The smallest of 1, 2, 5 × 10^n at least `max` (and at least 5), so grid lines fall on round numbers. */
export function chartScaleTop(max: number): number {
  const target = Math.max(5, max);
  for (let power = 1; ; power *= 10) {
    for (const step of [1, 2, 5]) if (step * power >= target) return step * power;
  }
}

export function renderUsageChart(series: readonly UsageDay[], labels: ChartLabels): Html {
  const top = chartScaleTop(Math.max(0, ...series.map((d) => Math.max(d.api, d.portal))));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, series.length);
  const bar = Math.max(2, Math.floor((slot - 4) / 2));
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  // Five steps: with a top of 1, 2 or 5 × 10^n (at least 5) every line falls on a whole number.
  const grid = [0, 1, 2, 3, 4, 5]
    .map((step) => (top / 5) * step)
    .map(
      (v) =>
        html`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}" stroke="#c8ced6" stroke-width="1" /><text
            x="${LEFT - 6}"
            y="${y(v) + 4}"
            text-anchor="end"
            font-size="13"
            fill="#39424e"
            >${v}</text
          >`,
    );
  const bars = series.map((d, i) => {
    const x = LEFT + i * slot + (slot - 2 * bar) / 2;
    const rect = (value: number, offset: number, colour: string, name: string) =>
      html`<rect x="${round(x + offset)}" y="${round(y(value))}" width="${bar}" height="${round(TOP + plotHeight - y(value))}" fill="${colour}"
        ><title>${d.day} ${name}: ${value}</title></rect
      >`;
    const tick = i % 5 === series.length % 5 || i === series.length - 1;
    return html`${rect(d.api, 0, API_COLOUR, labels.api)}${rect(d.portal, bar, PORTAL_COLOUR, labels.portal)}${
      tick ? html`<text x="${round(x + bar)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="13" fill="#39424e">${d.day.slice(5)}</text>` : ''
    }`;
  });
  const legend = html`<rect x="${LEFT}" y="8" width="12" height="12" fill="${API_COLOUR}" /><text x="${LEFT + 18}" y="19" font-size="14" fill="#1b1f24"
      >${labels.api}</text
    ><rect x="${LEFT + 120}" y="8" width="12" height="12" fill="${PORTAL_COLOUR}" /><text x="${LEFT + 138}" y="19" font-size="14" fill="#1b1f24"
      >${labels.portal}</text
    >`;
  return html`<svg
    class="usage-chart"
    xmlns="http://www.w3.org/2000/svg"
    viewBox="0 0 ${WIDTH} ${HEIGHT}"
    role="img"
    aria-labelledby="usage-chart-title usage-chart-desc"
  >
    <title id="usage-chart-title">${labels.title}</title>
    <desc id="usage-chart-desc">${labels.description}</desc>
    ${grid}${bars}${legend}
  </svg>`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
