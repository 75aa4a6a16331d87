import type { GazePlot, ReportItem, ReportRespondent } from '@emolens/contracts';
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Which respondent's gaze plot is drawn: the report's included respondents, by panel id or session. */
export function GazePlotPicker({
  people,
  value,
  onChange,
  label,
}: {
  people: ReportRespondent[];
  value: string | null;
  onChange: (sessionId: string | null) => void;
  /** What choosing one does (default: draws their gaze plot). */
  label?: string;
}) {
  const { t } = useTranslation('reportView');
  return (
    <Select
      size="xs"
      label={label ?? t('gazePlot.label')}
      placeholder={t('gazePlot.none')}
      value={value}
      onChange={onChange}
      data={people
        .filter((p) => p.included)
        .map((p) => ({ value: p.session_id, label: p.participant_id ?? p.session_id.slice(0, 8) }))}
      searchable
      clearable
      data-testid="gaze-plot-picker"
    />
  );
}

/**
 * One respondent's fixations over the item, in order: circles whose area grows with the fixation's duration,
 * numbered, joined by the saccades between them. Drawn in the item's pixels, stretched with it.
 */
export function GazePlotOverlay({ item, plot }: { item: ReportItem; plot: GazePlot }) {
  if (!item.width || !item.height) return null;
  const unit = Math.hypot(item.width, item.height) / 100;
  const radius = (f: GazePlot['fixations'][number]) => unit * (1 + 1.5 * Math.sqrt(Math.max(0, f.end - f.start)));
  return (
    <svg
      viewBox={`0 0 ${item.width} ${item.height}`}
      preserveAspectRatio="none"
      style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none' }}
      data-testid="gaze-plot"
      aria-hidden
    >
      <polyline
        points={plot.fixations.map((f) => `${f.x},${f.y}`).join(' ')}
        fill="none"
        stroke="rgba(255, 255, 255, 0.9)"
        strokeWidth={unit * 0.35}
      />
      {plot.fixations.map((f, i) => (
        <g key={`${f.start}:${f.x}:${f.y}`} data-testid="gaze-plot-fixation">
          <circle
            cx={f.x}
            cy={f.y}
            r={radius(f)}
            fill="rgba(34, 139, 230, 0.75)"
            stroke="white"
            strokeWidth={unit * 0.25}
          />
          <text
            x={f.x}
            y={f.y}
            fill="white"
            fontSize={unit * 1.4}
            fontWeight={700}
            textAnchor="middle"
            dominantBaseline="central"
          >
            {i + 1}
          </text>
        </g>
      ))}
    </svg>
  );
}
