import {
  BENCHMARK_METRICS,
  formatMessage,
  type HeatmapTheme,
  type Language,
  type Question,
  type QuestionStatistics,
  REPORT_METRICS,
  type ReportItem,
  type ReportMetric,
  type ReportSnapshot,
  type ReportType,
  textIn,
} from '@emolens/contracts';
import type { EChartsOption } from 'echarts';
import type PptxGenJS from 'pptxgenjs';
import { barsOption, fileCurvesOption } from './charts.ts';
import { ACCENT, BODY, Deck, DIM, H, INK, MARGIN, TOP, W } from './deck.ts';
import { fixationFilterText } from './fixation-filter-text.ts';
import { heatmapSlides } from './heatmap-slides.ts';
import { chartPng } from './render.ts';
import { FILE_TEXTS } from './texts.ts';

/** What a presentation is made from: the built report, its research, pictures and frames, questionnaires. */
export interface PresentationInput {
  name: string;
  research: string;
  project: string;
  type: ReportType;
  step: number;
  builtAt: Date;
  snapshot: ReportSnapshot;
  language: Language;
  theme: HeatmapTheme;
  /** Pictures, shelf images and site screenshots by media id; for a video, a still from its middle. */
  pictures: Map<string, { bytes: Uint8Array; mime: string }>;
  /** A video's frames at its key moments: item index → second → PNG. */
  frames: Map<number, Map<number, Uint8Array>>;
  questionnaires: { title: string; questions: Question[]; statistics: QuestionStatistics[] }[];
  onProgress?: (fraction: number) => Promise<void>;
}

/** Curve charts are drawn at this size (CSS px) and rasterised at twice it; bar charts are as tall as their bars. */
const CHART = { width: 1200, height: 500 };

/**
 * A chart on the slide at its own aspect ratio, and the note under it: the band's meaning, and N's grey area only
 * when the chart draws it.
 */
function chartSlide(deck: Deck, slide: PptxGenJS.Slide, option: EChartsOption, extra?: string) {
  deck.image(slide, chartPng(option, CHART.width, CHART.height));
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  const n = series.some((s) => String(s.id ?? '').startsWith('n:'));
  deck.note(slide, [deck.t.bandNote, n ? deck.t.nArea : null, extra].filter(Boolean).join(' '));
}

/** The sample: who the report counts and leaves out, by sex, age and quality grade. */
function sampleSlide(deck: Deck, snapshot: ReportSnapshot) {
  const { t } = deck;
  const included = snapshot.people.filter((p) => p.included);
  const ages = included
    .map((p) => p.age)
    .filter((a): a is number => a !== null)
    .sort((a, b) => a - b);
  const count = (pred: (p: (typeof included)[number]) => boolean) => included.filter(pred).length;
  const rows: (string | number)[][] = [
    [t.included, included.length],
    [t.excluded, snapshot.people.length - included.length],
    [t.men, count((p) => p.sex === 'man')],
    [t.women, count((p) => p.sex === 'woman')],
    [t.sexUnknown, count((p) => p.sex !== 'man' && p.sex !== 'woman')],
    [t.grades, ['A', 'B', 'C'].map((g) => snapshot.people.filter((p) => p.grade === g).length).join(' / ')],
  ];
  if (ages.length) {
    const median = ages[Math.floor((ages.length - 1) / 2)] as number;
    rows.push([
      formatMessage(t.age, { median, min: ages[0] as number, max: ages[ages.length - 1] as number }),
      ages.length,
    ]);
  }
  const slide = deck.slide(t.sample);
  deck.table(slide, [t.sample, 'N'], rows, TOP, [9, W - 2 * MARGIN - 9]);
}

/** The summary curves' slide: the engine's three summary metrics and its smile index; the expressions have their own. */
const SUMMARY_METRICS = ['engagement', 'valence', 'attention', 'smile'] as const satisfies readonly ReportMetric[];
const SUMMARY: ReadonlySet<ReportMetric> = new Set(SUMMARY_METRICS);

/** The item's curves, expressions and segments; N along the bottom where one N stands behind every line. */
function curveSlides(deck: Deck, item: ReportItem, label: string, snapshot: ReportSnapshot) {
  const { t } = deck;
  const base = { texts: t, language: deck.language, type: snapshot.type, step: snapshot.step };
  chartSlide(deck, deck.slide(t.curves, label), fileCurvesOption(item, { ...base, metrics: [...SUMMARY_METRICS] }));
  // The seven expressions, every one with the same N. Their shares are small: the axis fits them.
  chartSlide(
    deck,
    deck.slide(t.emotions, label),
    fileCurvesOption(item, { ...base, metrics: REPORT_METRICS.filter((m) => !SUMMARY.has(m)), fit: true }),
  );
  if (item.segments.length > 1) {
    // Each segment has its own N: in the legend, not along the bottom.
    chartSlide(
      deck,
      deck.slide(t.segments, label),
      fileCurvesOption(item, { ...base, metrics: ['engagement'], compare: true, showN: false }),
      t.segmentN,
    );
  }
}

/** Key moments as a table: second, kind, engagement. */
function momentsTable(deck: Deck, item: ReportItem, label: string) {
  if (!item.moments.length) return;
  const { t, format } = deck;
  const slide = deck.slide(t.moments, label);
  deck.table(
    slide,
    [t.second, t.moments, t.metrics.engagement],
    item.moments.map((m) => [format.number(m.second), m.kind === 'peak' ? t.peak : t.drop, format.number(m.value)]),
  );
}

/** The item's areas of interest (numbered as on the heatmap) and what fixations did in them. */
function areasSlide(deck: Deck, item: ReportItem, label: string) {
  if (!item.areas.length) return;
  const { t, format } = deck;
  const slide = deck.slide(t.areas, label);
  deck.table(
    slide,
    t.areaColumns,
    item.areas.map((a) => [
      `${a.id}. ${a.name}${a.from !== null || a.to !== null ? ` (${format.number(a.from ?? 0)}–${deck.seconds(a.to)})` : ''}`,
      `${format.percent(a.looked_share)} (${a.looked}/${a.respondents})`,
      format.number(a.time_to_first_fixation),
      format.number(a.dwell_time),
      format.percent(a.dwell_share),
      format.number(a.revisits),
      format.number(a.fixation_count),
    ]),
  );
}

function tasksSlide(deck: Deck, snapshot: ReportSnapshot) {
  if (!snapshot.tasks.length) return;
  const { t, format } = deck;
  const slide = deck.slide(t.tasks);
  deck.table(
    slide,
    t.taskColumns,
    snapshot.tasks.map((task) => [
      `${task.task + 1}. ${task.description}`,
      `${task.success} (${format.percent(task.success_share)})`,
      task.fail,
      format.number(task.time_to_success.median),
      format.number(task.clicks_to_success),
    ]),
  );
}

function benchmarkSlide(deck: Deck, snapshot: ReportSnapshot) {
  const b = snapshot.benchmark;
  if (!b) return;
  const { t, format } = deck;
  const slide = deck.slide(
    formatMessage(t.benchmarkTitle, { subtype: b.subtype }),
    formatMessage(t.benchmarkBase, { researches: b.researches, imported: b.imported }),
  );
  const byMetric = new Map(b.metrics.map((m) => [m.metric, m]));
  const rows = BENCHMARK_METRICS.flatMap((metric) => {
    const m = byMetric.get(metric);
    return m ? [[t.benchmark[metric], format.benchmarkValue(metric, m.value), format.percentile(m.percentile)]] : [];
  });
  deck.table(slide, t.benchmarkColumns, rows, TOP, [5, 3.5, W - 2 * MARGIN - 8.5]);
  const bars = BENCHMARK_METRICS.flatMap((metric) => {
    const p = byMetric.get(metric)?.percentile;
    return p === null || p === undefined ? [] : [{ label: t.benchmark[metric], value: p }];
  });
  if (bars.length) {
    const height = 40 + bars.length * 44;
    deck.image(
      slide,
      chartPng(barsOption(bars, '#d6336c', format.percentile), CHART.width, height),
      {
        x: MARGIN,
        y: TOP + 2.7,
        w: W - 2 * MARGIN,
        h: H - TOP - 2.7 - 0.4,
      },
      true,
    );
  }
}

/** Choice questions as bars of their options' shares; numbers as their summary. */
function questionnaireSlides(deck: Deck, input: PresentationInput) {
  const { t, format } = deck;
  for (const questionnaire of input.questionnaires) {
    for (const [i, stats] of questionnaire.statistics.entries()) {
      const question = questionnaire.questions.find((q) => q.id === stats.id);
      if (!question || !stats.answered) continue;
      const title = `${i + 1}. ${textIn(question.text, input.language)}`;
      const subtitle = `${questionnaire.title} · ${formatMessage(t.answered, { n: stats.answered })}`;
      const options = 'options' in question && Array.isArray(question.options) ? question.options : [];
      if (stats.options.length && options.length) {
        // Shares 0..1 drawn on a 0–100 scale, each written as the questionnaire statistics write it.
        const bars = stats.options.map((o) => ({
          label: textIn(options.find((opt: { id: string }) => opt.id === o.id)?.text, input.language) || o.id,
          value: o.share * 100,
        }));
        if (stats.other) bars.push({ label: '…', value: stats.other.share * 100 });
        const slide = deck.slide(title.length > 90 ? `${title.slice(0, 89)}…` : title, subtitle);
        const height = Math.min(520, 60 + bars.length * 44);
        deck.image(
          slide,
          chartPng(
            barsOption(bars, '#1c7ed6', (v) => format.answerShare(v / 100)),
            CHART.width,
            height,
          ),
          { ...BODY, h: H - TOP - 0.6 },
          true,
        );
      } else if (stats.numbers?.mean !== null && stats.numbers?.mean !== undefined) {
        const n = stats.numbers;
        const slide = deck.slide(title.length > 90 ? `${title.slice(0, 89)}…` : title, subtitle);
        deck.table(slide, t.numberColumns, [[n.mean, n.median, n.sd, n.min, n.max].map((v) => format.number(v))]);
      }
    }
  }
}

function methodSlide(deck: Deck, input: PresentationInput) {
  const { t } = deck;
  const s = input.snapshot;
  const slide = deck.slide(t.method);
  const lines = [
    `${t.bandNote} ${t.nArea}`,
    `${t.types[input.type]}. ${formatMessage(t.step, { step: input.step })}.`,
    `${t.engineVersions}: ${s.engine_versions.join(', ') || t.none}`,
    `${t.fixationFilter}: ${fixationFilterText(t, deck.format, s.fixation_filter)}`,
  ];
  slide.addText(
    lines.map((text) => ({ text, options: { bullet: true, breakLine: true } })),
    { x: MARGIN, y: TOP, w: W - 2 * MARGIN, h: 3, fontFace: deck.font, fontSize: 14, color: INK, valign: 'top' },
  );
}

/**
 * The report as a PPTX: title, sample, per content item its curves with bands, expressions, segments, key
 * moments, heatmap and areas of interest; tasks; the benchmark; questionnaire charts; how the numbers were made.
 * Charts are images rendered here (ECharts → SVG → PNG).
 */
export async function buildPresentation(input: PresentationInput): Promise<Buffer> {
  const deck = new Deck(FILE_TEXTS[input.language], input.language);
  const { t } = deck;
  deck.pptx.title = input.name;
  deck.pptx.subject = `${input.research} · ${input.project}`;
  deck.pptx.company = 'Emolens';

  const cover = deck.pptx.addSlide();
  cover.background = { color: 'F8F9FA' };
  cover.addShape('rect', { x: 0, y: 0, w: 0.25, h: H, fill: { color: ACCENT }, line: { color: ACCENT } });
  cover.addText(input.name, {
    x: 1,
    y: 2.2,
    w: W - 2,
    h: 1.2,
    fontFace: deck.font,
    fontSize: 40,
    bold: true,
    color: INK,
  });
  cover.addText(`${input.research} · ${input.project}`, {
    x: 1,
    y: 3.4,
    w: W - 2,
    h: 0.6,
    fontFace: deck.font,
    fontSize: 20,
    color: INK,
  });
  const built = new Intl.DateTimeFormat(input.language, { dateStyle: 'long' }).format(input.builtAt);
  cover.addText(
    `${t.title} · ${formatMessage(t.built, { date: built })} · ${t.types[input.type]} · N = ${input.snapshot.respondents}`,
    { x: 1, y: 4.1, w: W - 2, h: 0.5, fontFace: deck.font, fontSize: 14, color: DIM },
  );

  sampleSlide(deck, input.snapshot);
  const items = input.snapshot.items;
  for (const [i, item] of items.entries()) {
    const label = items.length > 1 ? `${i + 1}. ${item.label}` : item.label;
    curveSlides(deck, item, label, input.snapshot);
    momentsTable(deck, item, label);
    const picture = item.media_id ? (input.pictures.get(item.media_id) ?? null) : null;
    heatmapSlides(
      deck,
      { theme: input.theme, picture, frames: input.frames.get(item.index), step: input.snapshot.step },
      item,
      label,
    );
    areasSlide(deck, item, label);
    await input.onProgress?.((i + 1) / (items.length + 1));
  }
  tasksSlide(deck, input.snapshot);
  benchmarkSlide(deck, input.snapshot);
  questionnaireSlides(deck, input);
  methodSlide(deck, input);
  return (await deck.pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
