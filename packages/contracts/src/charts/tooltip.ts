import { MOMENT_COLORS } from '../report-colours.ts';
import type { Curve, ReportItem } from '../reports.ts';
import { isSmallN } from './series.ts';
import { pointLabel } from './time.ts';

/** What the cabinet's tooltip says of a point (the files, drawn once, have none). */
export interface TooltipText {
  mean: string;
  band: string;
  n: string;
  /** "Above 0.5" */
  above: string;
  peak: string;
  drop: string;
  /** Why a point's interval is drawn faint (fewer than SMALL_N respondents). */
  smallN: string;
}

/** Text put into a tooltip's HTML. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const dot = (color: string) =>
  `<span style="display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:6px;background:${color}"></span>`;

/**
 * The tooltip of a point: its time (or category), each line's mean, band, N and share above the threshold (in share
 * mode the share first, with its interval), why its interval is faint, and the key moment there. Labels escaped.
 */
export function curvesTooltip(input: {
  seconds: readonly number[];
  step: number;
  categories?: readonly string[];
  lines: readonly { key: string; label: string; color: string; curve: Curve }[];
  mode: 'mean' | 'share';
  moments: ReportItem['moments'];
  language: string;
  text: TooltipText;
}): (params: unknown) => string {
  const { seconds, step, categories, mode, text } = input;
  const decimals = new Intl.NumberFormat(input.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(input.language, { style: 'percent', maximumFractionDigits: 0 });
  const value = (v: number | null | undefined) => (v === null || v === undefined ? '—' : decimals.format(v));
  const share = (v: number | null | undefined) => (v === null || v === undefined ? '—' : percent.format(v));
  const byKey = new Map(input.lines.map((line) => [line.key, line]));
  const momentAt = new Map(input.moments.map((m) => [m.second, m]));
  return (params) => {
    const list = (Array.isArray(params) ? params : [params]) as { seriesId?: string; dataIndex: number }[];
    const index = list[0]?.dataIndex ?? 0;
    const second = seconds[index];
    if (second === undefined) return '';
    const rows = list
      .filter((p) => p.seriesId?.startsWith('mean:'))
      .map((p) => byKey.get(p.seriesId?.slice('mean:'.length) ?? ''))
      .filter((line) => !!line)
      .map((line) => {
        const c = line.curve;
        const n = c.n[index] ?? 0;
        const shareBand =
          c.share_low[index] == null ? '—' : `${share(c.share_low[index])} – ${share(c.share_high[index])}`;
        const facts =
          mode === 'mean'
            ? [
                `${text.mean} ${value(c.mean[index])}`,
                `${text.band} ${c.low[index] == null ? '—' : `${value(c.low[index])} – ${value(c.high[index])}`}`,
                `${text.n} = ${n}`,
                `${text.above}: ${share(c.share_above[index])}`,
              ]
            : [`${text.above}: ${share(c.share_above[index])}`, `${text.band} ${shareBand}`, `${text.n} = ${n}`];
        const few =
          n > 0 && isSmallN(c.n, index) ? `<br/><span style="color:#868e96">${escapeHtml(text.smallN)}</span>` : '';
        return `<div style="margin-top:4px">${dot(line.color)}<b>${escapeHtml(line.label)}</b><br/>${escapeHtml(facts.join(' · '))}${few}</div>`;
      });
    const moment = momentAt.get(second);
    const note = moment
      ? `<div style="margin-top:4px;color:${MOMENT_COLORS[moment.kind]}">${moment.kind === 'peak' ? '▲' : '▼'} ${escapeHtml(
          moment.kind === 'peak' ? text.peak : text.drop,
        )}</div>`
      : '';
    const title = categories ? escapeHtml(categories[index] ?? '') : pointLabel(second, step);
    return `<div style="font-weight:600">${title}</div>${rows.join('')}${note}`;
  };
}
