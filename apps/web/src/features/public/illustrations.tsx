/**
 * Drawings of the public pages, made in SVG so that nothing loads from the network. Every number
 * drawn here is invented for the picture; the pages label each drawing as an illustration.
 */
import { Badge, Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './public.module.css';
import { useFormatters } from './use-formatters.ts';

export const EMOTIONS = ['neutral', 'happy', 'surprise', 'sad', 'angry', 'disgust', 'fear'] as const;

const INDIGO = '#4c6ef5';
const INDIGO_DARK = '#364fc7';

/** The badge that marks a drawing as an example, never as measured data. */
export function IllustrationBadge() {
  const { t } = useTranslation('public');
  return (
    <Badge
      variant="light"
      color="gray"
      tt="none"
      fw={600}
      leftSection={<IconInfoCircle size={12} />}
      title={t('illustrationNote')}
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {t('illustration')}
    </Badge>
  );
}

// --- Emotion curve --------------------------------------------------------------------------------

const CURVE = { width: 600, height: 320, left: 64, right: 584, top: 34, bottom: 264, seconds: 30, max: 50 };

function curveX(t: number): number {
  return CURVE.left + (t / CURVE.seconds) * (CURVE.right - CURVE.left);
}

function curveY(value: number): number {
  return CURVE.bottom - (value / CURVE.max) * (CURVE.bottom - CURVE.top);
}

/** An invented engagement curve: a small bump early on and a peak when the logo appears. */
function engagement(t: number): number {
  return 16 + 5 * Math.sin(t / 2.2) + 24 * Math.exp(-((t - 22) ** 2) / 7) + 9 * Math.exp(-((t - 7) ** 2) / 4);
}

function halfWidth(t: number): number {
  return 4.5 + 1.5 * Math.cos(t / 3.5) + 2 * Math.exp(-((t - 22) ** 2) / 9);
}

const SAMPLES = Array.from({ length: 121 }, (_, i) => (i / 120) * CURVE.seconds);

function pathOf(points: Array<[number, number]>): string {
  return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`).join(' ');
}

const MEAN_PATH = pathOf(SAMPLES.map((t) => [curveX(t), curveY(engagement(t))]));
const BAND_PATH = `${pathOf([
  ...SAMPLES.map((t): [number, number] => [curveX(t), curveY(engagement(t) + halfWidth(t))]),
  ...[...SAMPLES].reverse().map((t): [number, number] => [curveX(t), curveY(engagement(t) - halfWidth(t))]),
])} Z`;

export function EmotionCurveChart({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('public');
  const { number } = useFormatters();
  const gradient = useId();
  const markerX = curveX(22);
  return (
    <svg
      viewBox={`0 0 ${CURVE.width} ${CURVE.height}`}
      className={classes.svg}
      role="img"
      aria-label={t('home.visuals.curveAria')}
    >
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0%" stopColor={INDIGO} stopOpacity="0.32" />
          <stop offset="100%" stopColor={INDIGO} stopOpacity="0.12" />
        </linearGradient>
      </defs>
      {[0, 10, 20, 30, 40, 50].map((v) => (
        <g key={v}>
          <line x1={CURVE.left} x2={CURVE.right} y1={curveY(v)} y2={curveY(v)} stroke="#e9ecef" strokeWidth="1" />
          <text x={CURVE.left - 10} y={curveY(v) + 5} textAnchor="end" fontSize="15" fill="#868e96">
            {number(v)}
          </text>
        </g>
      ))}
      {[0, 5, 10, 15, 20, 25, 30].map((s) => (
        <text key={s} x={curveX(s)} y={CURVE.bottom + 24} textAnchor="middle" fontSize="15" fill="#868e96">
          {number(s)}
        </text>
      ))}
      {!compact && (
        <text x={(CURVE.left + CURVE.right) / 2} y={CURVE.height - 4} textAnchor="middle" fontSize="15" fill="#495057">
          {t('home.visuals.curveAxisTime')}
        </text>
      )}
      {!compact && (
        <text
          x={16}
          y={(CURVE.top + CURVE.bottom) / 2}
          textAnchor="middle"
          fontSize="15"
          fill="#495057"
          transform={`rotate(-90 16 ${(CURVE.top + CURVE.bottom) / 2})`}
        >
          {t('home.visuals.curveAxisValue')}
        </text>
      )}
      <path d={BAND_PATH} fill={`url(#${gradient})`} />
      <line
        x1={markerX}
        x2={markerX}
        y1={CURVE.top}
        y2={CURVE.bottom}
        stroke="#f59f00"
        strokeWidth="1.5"
        strokeDasharray="4 4"
      />
      <rect x={markerX - 36} y={CURVE.top - 30} width="72" height="26" rx="13" fill="#fff4e6" stroke="#f59f00" />
      <text x={markerX} y={CURVE.top - 12} textAnchor="middle" fontSize="14" fontWeight="600" fill="#d9480f">
        {t('home.visuals.curveMarker')}
      </text>
      <path d={MEAN_PATH} fill="none" stroke={INDIGO_DARK} strokeWidth="2.5" strokeLinejoin="round" />
      <line x1={CURVE.left} x2={CURVE.right} y1={CURVE.bottom} y2={CURVE.bottom} stroke="#adb5bd" strokeWidth="1" />
    </svg>
  );
}

export function CurveLegend() {
  const { t } = useTranslation('public');
  return (
    <Group gap="md" wrap="wrap" style={{ rowGap: 6 }}>
      <Group gap={8} wrap="nowrap">
        <Box w={18} h={3} bg="indigo.8" style={{ borderRadius: 2 }} />
        <Text size="sm" c="dimmed">
          {t('home.visuals.curveLegendMean')}
        </Text>
      </Group>
      <Group gap={8} wrap="nowrap">
        <Box w={18} h={12} bg="indigo.2" style={{ borderRadius: 3 }} />
        <Text size="sm" c="dimmed">
          {t('home.visuals.curveLegendCi')}
        </Text>
      </Group>
    </Group>
  );
}

// --- Gaze heatmap over a shelf --------------------------------------------------------------------

interface Product {
  id: string;
  w: number;
  h: number;
  color: string;
  zone?: boolean;
}

const SHELF = { width: 600, height: 380, left: 24, right: 576, gap: 6 };
const SHELF_BOARDS = [128, 244, 360];
const SHELF_ROWS: Product[][] = [
  [
    { id: 'a1', w: 44, h: 82, color: '#fa5252' },
    { id: 'a2', w: 44, h: 82, color: '#fa5252' },
    { id: 'a3', w: 62, h: 70, color: '#fab005' },
    { id: 'a4', w: 62, h: 70, color: '#fab005' },
    { id: 'a5', w: 38, h: 92, color: '#12b886' },
    { id: 'a6', w: 38, h: 92, color: '#12b886' },
    { id: 'a7', w: 38, h: 92, color: '#12b886' },
    { id: 'a8', w: 70, h: 64, color: '#be4bdb' },
    { id: 'a9', w: 70, h: 64, color: '#be4bdb' },
    { id: 'a10', w: 46, h: 78, color: '#15aabf' },
  ],
  [
    { id: 'b1', w: 54, h: 74, color: '#fd7e14' },
    { id: 'b2', w: 54, h: 74, color: '#fd7e14' },
    { id: 'b3', w: 48, h: 90, color: INDIGO, zone: true },
    { id: 'b4', w: 48, h: 90, color: INDIGO, zone: true },
    { id: 'b5', w: 48, h: 90, color: INDIGO, zone: true },
    { id: 'b6', w: 60, h: 68, color: '#82c91e' },
    { id: 'b7', w: 60, h: 68, color: '#82c91e' },
    { id: 'b8', w: 40, h: 84, color: '#e64980' },
    { id: 'b9', w: 40, h: 84, color: '#e64980' },
    { id: 'b10', w: 52, h: 72, color: '#228be6' },
  ],
  [
    { id: 'c1', w: 76, h: 60, color: '#15aabf' },
    { id: 'c2', w: 76, h: 60, color: '#15aabf' },
    { id: 'c3', w: 42, h: 86, color: '#fa5252' },
    { id: 'c4', w: 42, h: 86, color: '#fa5252' },
    { id: 'c5', w: 64, h: 72, color: '#fab005' },
    { id: 'c6', w: 64, h: 72, color: '#fab005' },
    { id: 'c7', w: 44, h: 80, color: '#12b886' },
    { id: 'c8', w: 44, h: 80, color: '#12b886' },
    { id: 'c9', w: 56, h: 66, color: '#7950f2' },
  ],
];

interface PlacedProduct extends Product {
  x: number;
  y: number;
}

/** Products stand on their board; each row is stretched to fill the shelf from side to side. */
const PLACED: PlacedProduct[] = SHELF_ROWS.flatMap((row, r) => {
  const board = SHELF_BOARDS[r] ?? 0;
  const inner = SHELF.right - SHELF.left - 24 - SHELF.gap * (row.length - 1);
  const scale = inner / row.reduce((sum, p) => sum + p.w, 0);
  let x = SHELF.left + 12;
  return row.map((p) => {
    const w = p.w * scale;
    const placed = { ...p, w, x, y: board - p.h };
    x += w + SHELF.gap;
    return placed;
  });
});

const ZONE = (() => {
  const inZone = PLACED.filter((p) => p.zone);
  const x1 = Math.min(...inZone.map((p) => p.x)) - 6;
  const x2 = Math.max(...inZone.map((p) => p.x + p.w)) + 6;
  const y1 = Math.min(...inZone.map((p) => p.y)) - 8;
  const y2 = Math.max(...inZone.map((p) => p.y + p.h)) + 4;
  return { x: x1, y: y1, w: x2 - x1, h: y2 - y1 };
})();

/** Invented gaze density: where the drawn respondents looked most. */
const HEAT_SPOTS = [
  { id: 'h1', x: ZONE.x + ZONE.w / 2, y: ZONE.y + ZONE.h / 2, r: 88 },
  { id: 'h2', x: ZONE.x + ZONE.w / 2 - 20, y: ZONE.y + 30, r: 54 },
  { id: 'h3', x: 140, y: 92, r: 58 },
  { id: 'h4', x: 420, y: 200, r: 50 },
  { id: 'h5', x: 300, y: 320, r: 46 },
  { id: 'h6', x: 500, y: 88, r: 34 },
];

/** A generous estimate of the width of bold SVG text: wide glyphs (Hangul, CJK) take a full em. */
function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const char of text) width += (char.codePointAt(0) ?? 0) >= 0x1100 ? fontSize : fontSize * 0.64;
  return width;
}

export function ShelfHeatmap() {
  const { t } = useTranslation('public');
  const heat = useId();
  const zoneLabel = t('home.visuals.heatmapZone');
  const labelWidth = Math.max(120, textWidth(zoneLabel, 14) + 28);
  return (
    <svg
      viewBox={`0 0 ${SHELF.width} ${SHELF.height}`}
      className={classes.svg}
      role="img"
      aria-label={t('home.visuals.heatmapAria')}
    >
      <defs>
        <radialGradient id={heat}>
          <stop offset="0%" stopColor="#e03131" stopOpacity="0.92" />
          <stop offset="35%" stopColor="#ff922b" stopOpacity="0.72" />
          <stop offset="65%" stopColor="#ffd43b" stopOpacity="0.42" />
          <stop offset="100%" stopColor="#ffd43b" stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect x="8" y="6" width={SHELF.width - 16} height={SHELF.height - 10} rx="10" fill="#f8f9fa" stroke="#dee2e6" />
      {SHELF_BOARDS.map((y) => (
        <rect key={y} x={SHELF.left} y={y} width={SHELF.right - SHELF.left} height="10" rx="2" fill="#ced4da" />
      ))}
      {PLACED.map((p) => (
        <g key={p.id}>
          <rect x={p.x} y={p.y} width={p.w} height={p.h} rx="4" fill={p.color} />
          <rect
            x={p.x + 5}
            y={p.y + p.h * 0.38}
            width={p.w - 10}
            height={p.h * 0.26}
            rx="2"
            fill="#fff"
            opacity="0.82"
          />
          <rect x={p.x + 10} y={p.y + p.h * 0.46} width={p.w - 20} height="4" rx="2" fill={p.color} opacity="0.7" />
        </g>
      ))}
      {/* the picture is dimmed under the heat, as heatmap views usually do */}
      <rect x="8" y="6" width={SHELF.width - 16} height={SHELF.height - 10} rx="10" fill="#fff" opacity="0.45" />
      {HEAT_SPOTS.map((s) => (
        <circle key={s.id} cx={s.x} cy={s.y} r={s.r} fill={`url(#${heat})`} />
      ))}
      <rect
        x={ZONE.x}
        y={ZONE.y}
        width={ZONE.w}
        height={ZONE.h}
        rx="6"
        fill="none"
        stroke="#212529"
        strokeWidth="2"
        strokeDasharray="6 4"
      />
      <rect x={ZONE.x} y={ZONE.y + ZONE.h + 14} width={labelWidth} height="26" rx="13" fill="#212529" />
      <text
        x={ZONE.x + labelWidth / 2}
        y={ZONE.y + ZONE.h + 32}
        textAnchor="middle"
        fontSize="15"
        fontWeight="600"
        fill="#fff"
      >
        {zoneLabel}
      </text>
    </svg>
  );
}

export function HeatLegend() {
  const { t } = useTranslation('public');
  return (
    <Stack gap={4} maw={260}>
      <Box className={classes.heatLegend} />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t('home.visuals.heatmapLow')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('home.visuals.heatmapHigh')}
        </Text>
      </Group>
    </Stack>
  );
}

// --- Hero: a product-like report window -----------------------------------------------------------

/** A drawn ad frame with the respondent's webcam picture-in-picture and the estimated gaze point. */
function ContentFrame() {
  const { t } = useTranslation('public');
  const sky = useId();
  return (
    <svg viewBox="0 0 320 180" className={classes.svg} aria-hidden="true">
      <defs>
        <linearGradient id={sky} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" stopColor="#5c7cfa" />
          <stop offset="100%" stopColor="#9775fa" />
        </linearGradient>
      </defs>
      <rect width="320" height="180" rx="8" fill={`url(#${sky})`} />
      <circle cx="252" cy="46" r="22" fill="#ffe066" opacity="0.9" />
      <path d="M0 132 Q 70 96 140 124 T 320 112 V 180 H 0 Z" fill="#4263eb" opacity="0.55" />
      <path d="M0 150 Q 90 120 180 146 T 320 140 V 180 H 0 Z" fill="#364fc7" opacity="0.7" />
      <rect x="40" y="40" width="110" height="12" rx="6" fill="#fff" opacity="0.95" />
      <rect x="40" y="60" width="78" height="8" rx="4" fill="#fff" opacity="0.7" />
      <rect x="150" y="64" width="34" height="80" rx="10" fill="#fff" />
      <rect x="158" y="52" width="18" height="16" rx="4" fill="#fff" />
      <rect x="154" y="92" width="26" height="22" rx="3" fill="#ffd43b" />
      {/* estimated gaze point */}
      <circle cx="168" cy="100" r="16" fill="none" stroke="#fff" strokeWidth="2" opacity="0.9" />
      <circle cx="168" cy="100" r="5" fill="#ff6b6b" stroke="#fff" strokeWidth="2" />
      {/* webcam picture-in-picture */}
      <g transform="translate(226 110)">
        <rect width="84" height="62" rx="6" fill="#212529" stroke="#fff" strokeWidth="2" />
        <ellipse cx="42" cy="34" rx="16" ry="20" fill="#e9c9a8" />
        <path d="M26 26 Q 42 6 58 26" fill="#5c3d2e" />
        <circle cx="36" cy="32" r="2" fill="#343a40" />
        <circle cx="48" cy="32" r="2" fill="#343a40" />
        <path d="M35 42 Q 42 48 49 42" fill="none" stroke="#c92a2a" strokeWidth="2" strokeLinecap="round" />
        <path
          d="M22 18 h6 M22 18 v6 M62 18 h-6 M62 18 v6 M22 54 h6 M22 54 v-6 M62 54 h-6 M62 54 v-6"
          stroke="#51cf66"
          strokeWidth="2"
        />
        <text x="6" y="12" fontSize="8" fill="#fff" opacity="0.85">
          {t('home.mock.webcam')}
        </text>
      </g>
    </svg>
  );
}

const MOCK_SHARES: Record<(typeof EMOTIONS)[number], number> = {
  neutral: 0.54,
  happy: 0.21,
  surprise: 0.11,
  sad: 0.05,
  angry: 0.03,
  disgust: 0.02,
  fear: 0.04,
};

export const EMOTION_COLORS: Record<(typeof EMOTIONS)[number], string> = {
  neutral: 'gray.5',
  happy: 'yellow.5',
  surprise: 'cyan.5',
  sad: 'blue.6',
  angry: 'red.6',
  disgust: 'lime.7',
  fear: 'grape.6',
};

function MetricTile({ label, value, color }: { label: string; value: string; color: string }) {
  return (
    <Paper withBorder radius="md" p="xs" bg="gray.0">
      <Text size="xs" c="dimmed" lineClamp={1}>
        {label}
      </Text>
      <Text fw={750} fz={20} c={color} lh={1.3}>
        {value}
      </Text>
    </Paper>
  );
}

export function HeroReportMock() {
  const { t } = useTranslation('public');
  const { number } = useFormatters();
  const percent = (v: number) => number(v, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <Paper radius="lg" withBorder className={classes.window} bg="white">
      <div className={classes.windowBar}>
        <span className={classes.windowDot} />
        <span className={classes.windowDot} />
        <span className={classes.windowDot} />
        <Text size="xs" c="dimmed" ml="xs" truncate style={{ flex: 1 }}>
          {t('home.mock.window')}
        </Text>
        <IllustrationBadge />
      </div>
      <Stack gap="sm" p="md">
        <ContentFrame />
        <SimpleGrid cols={3} spacing="xs">
          <MetricTile label={t('home.mock.engagement')} value={percent(0.38)} color="indigo.7" />
          <MetricTile
            label={t('home.mock.valence')}
            value={number(0.24, { signDisplay: 'always', maximumFractionDigits: 2 })}
            color="teal.7"
          />
          <MetricTile label={t('home.mock.attention')} value={percent(0.86)} color="violet.7" />
        </SimpleGrid>
        <Box>
          <Group justify="space-between" mb={6} gap="xs">
            <Text size="xs" fw={600} c="dimmed">
              {t('home.mock.emotions')}
            </Text>
            <Text size="xs" c="dimmed">
              n = {number(412)} {t('home.mock.respondents')}
            </Text>
          </Group>
          <Group gap={2} wrap="nowrap" h={10} style={{ borderRadius: 5, overflow: 'hidden' }}>
            {EMOTIONS.map((e) => (
              <Box key={e} h="100%" bg={EMOTION_COLORS[e]} style={{ flexGrow: MOCK_SHARES[e], flexBasis: 0 }} />
            ))}
          </Group>
          <Group gap="sm" mt={8} wrap="wrap" style={{ rowGap: 4 }}>
            {EMOTIONS.map((e) => (
              <Group key={e} gap={4} wrap="nowrap">
                <Box w={8} h={8} bg={EMOTION_COLORS[e]} style={{ borderRadius: 2 }} />
                <Text size="xs" c="dimmed">
                  {t(`home.emotions.${e}`)} {percent(MOCK_SHARES[e])}
                </Text>
              </Group>
            ))}
          </Group>
        </Box>
      </Stack>
    </Paper>
  );
}
