import {
  BENCHMARK_METRICS,
  formatMessage,
  type HeatmapTheme,
  type Language,
  type Question,
  type QuestionStatistics,
  REPORT_METRICS,
  type ReportItem,
  type ReportSnapshot,
  type ReportType,
  textIn,
} from '@emolens/contracts';
import PptxGenJS from 'pptxgenjs';
import { barsOption, curvesOption, metricLine, segmentLines } from './charts.ts';
import { chartPng, heatmapPicture } from './render.ts';
import { FILE_TEXTS, type FileTexts } from './texts.ts';

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
  /** Pictures, shelf images and site screenshots by media id. */
  pictures: Map<string, { bytes: Uint8Array; mime: string }>;
  /** A video's frames at its key moments: item index → second → PNG. */
  frames: Map<number, Map<number, Uint8Array>>;
  questionnaires: { title: string; questions: Question[]; statistics: QuestionStatistics[] }[];
  onProgress?: (fraction: number) => Promise<void>;
}

/** Slides of 13.33 × 7.5 in; content below the title from y = 1.2 in. */
const W = 13.33;
const H = 7.5;
const MARGIN = 0.5;
const TOP = 1.25;
const INK = '212529';
const DIM = '868E96';
const ACCENT = 'D6336C';
/** Chart images drawn at this size (CSS px) and rasterised at twice it. */
const CHART = { width: 1200, height: 500 };

const png = (bytes: Uint8Array) => `image/png;base64,${Buffer.from(bytes).toString('base64')}`;
const pct = (share: number | null | undefined) => (share === null || share === undefined ? null : share * 100);

/** An image box of `ratio` (width / height) as large as fits in the given area, centred. */
function fit(ratio: number, area: { x: number; y: number; w: number; h: number }) {
  const w = Math.min(area.w, area.h * ratio);
  const h = w / ratio;
  return { x: area.x + (area.w - w) / 2, y: area.y + (area.h - h) / 2, w, h };
}

class Deck {
  readonly pptx = new PptxGenJS();
  readonly font: string;
  readonly number: Intl.NumberFormat;

  constructor(
    readonly t: FileTexts,
    readonly language: Language,
  ) {
    this.pptx.layout = 'LAYOUT_WIDE';
    this.font = language === 'ko' ? 'Malgun Gothic' : 'Arial';
    this.number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  }

  fmt(value: number | null | undefined, digits = 2): string {
    if (value === null || value === undefined || !Number.isFinite(value)) return this.t.none;
    return new Intl.NumberFormat(this.language, { maximumFractionDigits: digits }).format(value);
  }

  /** A slide with its title (and a subtitle in grey). */
  slide(title: string, subtitle?: string) {
    const slide = this.pptx.addSlide();
    slide.addText(title, {
      x: MARGIN,
      y: 0.3,
      w: W - 2 * MARGIN,
      h: 0.6,
      fontFace: this.font,
      fontSize: 24,
      bold: true,
      color: INK,
    });
    if (subtitle) {
      slide.addText(subtitle, {
        x: MARGIN,
        y: 0.85,
        w: W - 2 * MARGIN,
        h: 0.35,
        fontFace: this.font,
        fontSize: 12,
        color: DIM,
      });
    }
    return slide;
  }

  /** A chart image filling the slide's body. */
  chart(slide: PptxGenJS.Slide, image: Buffer, area = { x: MARGIN, y: TOP, w: W - 2 * MARGIN, h: H - TOP - 0.9 }) {
    slide.addImage({ data: png(image), ...fit(CHART.width / CHART.height, area) });
  }

  note(slide: PptxGenJS.Slide, text: string) {
    slide.addText(text, {
      x: MARGIN,
      y: H - 0.75,
      w: W - 2 * MARGIN,
      h: 0.5,
      fontFace: this.font,
      fontSize: 11,
      color: DIM,
    });
  }

  table(slide: PptxGenJS.Slide, header: string[], rows: (string | number)[][], y = TOP, colW?: number[]) {
    const cell = (text: string | number, head = false) => ({
      text: String(text),
      options: head ? { bold: true, fill: { color: 'F1F3F5' }, color: INK } : { color: INK },
    });
    slide.addTable([header.map((h) => cell(h, true)), ...rows.map((r) => r.map((c) => cell(c)))], {
      x: MARGIN,
      y,
      w: W - 2 * MARGIN,
      colW,
      fontFace: this.font,
      fontSize: 11,
      border: { type: 'solid', pt: 0.5, color: 'DEE2E6' },
      autoPage: true,
      autoPageRepeatHeader: true,
    });
  }
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

/** The item's curves, expressions, segments and key moments. */
function curveSlides(deck: Deck, item: ReportItem, label: string) {
  const { t } = deck;
  const labels = { second: t.second, n: t.respondentsAxis, peak: t.peak, drop: t.drop };
  const main = deck.slide(`${t.curves}`, label);
  const lines = (['engagement', 'valence', 'attention'] as const).map((m) => metricLine(item, m, t.metrics[m]));
  deck.chart(
    main,
    chartPng(
      curvesOption(item, lines, labels, { moments: true, n: item.curves.engagement.n }),
      CHART.width,
      CHART.height,
    ),
  );
  deck.note(main, t.bandNote);

  const emotions = deck.slide(t.emotions, label);
  // The seven expressions follow engagement, valence and attention in REPORT_METRICS.
  const expressionLines = REPORT_METRICS.slice(3).map((m) => metricLine(item, m, t.metrics[m]));
  deck.chart(
    emotions,
    chartPng(curvesOption(item, expressionLines, labels, { fitValues: true }), CHART.width, CHART.height),
  );
  deck.note(emotions, t.bandNote);

  if (item.segments.length > 1) {
    const slide = deck.slide(t.segments, label);
    const nameOf = (key: string, i: number) => {
      const segment = item.segments[i];
      const name =
        key === 'man'
          ? t.men
          : key === 'woman'
            ? t.women
            : (segment?.labels?.[deck.language] ?? segment?.labels?.en ?? key);
      return `${name} (${segment?.respondents ?? 0})`;
    };
    deck.chart(
      slide,
      chartPng(curvesOption(item, segmentLines(item, 'engagement', nameOf), labels), CHART.width, CHART.height),
    );
    deck.note(slide, t.bandNote);
  }
}

/** Key moments as a table: second, kind, engagement. */
function momentsTable(deck: Deck, item: ReportItem, label: string) {
  if (!item.moments.length) return;
  const { t } = deck;
  const slide = deck.slide(t.moments, label);
  deck.table(
    slide,
    [t.second, t.moments, t.metrics.engagement],
    item.moments.map((m) => [deck.fmt(m.second, 1), m.kind === 'peak' ? t.peak : t.drop, deck.fmt(m.value, 3)]),
  );
}

/** Where people looked: the item's picture with its heatmap, or a video's frames at its key moments. */
function heatmapSlides(deck: Deck, input: PresentationInput, item: ReportItem, label: string) {
  const { t } = deck;
  if (!item.width || !item.height || !item.gaze_respondents) return;
  const size = { width: item.width, height: item.height };
  const note = formatMessage(t.heatmapNote, { n: item.gaze_respondents, px: deck.fmt(item.kernel_px, 0) });
  const area = { x: MARGIN, y: TOP, w: W - 2 * MARGIN, h: H - TOP - 0.9 };
  const options = { theme: input.theme, opacity: 0.7, width: 1600 };
  const frames = input.frames.get(item.index);
  if (frames?.size && item.heatmap_frames) {
    const shown = [...frames.entries()].slice(0, 3);
    const slide = deck.slide(t.heatmap, label);
    const w = (area.w - (shown.length - 1) * 0.2) / shown.length;
    shown.forEach(([second, frame], i) => {
      const point = Math.min(item.heatmap_frames?.length ?? 1, Math.floor(second / Math.max(1, item.seconds[1] ?? 1)));
      const grid = item.heatmap_frames?.[point] ?? null;
      const image = heatmapPicture({ bytes: frame, mime: 'image/png' }, size, grid, { ...options, width: 900 });
      const box = fit((item.width as number) / (item.height as number), {
        x: area.x + i * (w + 0.2),
        y: area.y,
        w,
        h: area.h - 0.4,
      });
      slide.addImage({ data: png(image), ...box });
      slide.addText(`${deck.fmt(second, 1)} s`, {
        x: box.x,
        y: box.y + box.h + 0.05,
        w: box.w,
        h: 0.3,
        fontFace: deck.font,
        fontSize: 11,
        color: DIM,
        align: 'center',
      });
    });
    deck.note(slide, note);
    return;
  }
  if (!item.heatmap) return;
  const picture = item.media_id ? (input.pictures.get(item.media_id) ?? null) : null;
  const slide = deck.slide(t.heatmap, label);
  slide.addImage({
    data: png(heatmapPicture(picture, size, item.heatmap, options)),
    ...fit(item.width / item.height, area),
  });
  deck.note(slide, note);
}

/** The item's areas of interest and what fixations did in them. */
function areasSlide(deck: Deck, item: ReportItem, label: string) {
  if (!item.areas.length) return;
  const { t } = deck;
  const slide = deck.slide(t.areas, label);
  deck.table(
    slide,
    t.areaColumns,
    item.areas.map((a) => [
      a.from !== null || a.to !== null ? `${a.name} (${deck.fmt(a.from ?? 0, 1)}–${deck.fmt(a.to, 1)} s)` : a.name,
      `${deck.fmt(pct(a.looked_share), 0)}% (${a.looked}/${a.respondents})`,
      deck.fmt(a.time_to_first_fixation),
      deck.fmt(a.dwell_time),
      `${deck.fmt(pct(a.dwell_share), 0)}%`,
      deck.fmt(a.revisits),
      deck.fmt(a.fixation_count, 1),
    ]),
  );
}

function tasksSlide(deck: Deck, snapshot: ReportSnapshot) {
  if (!snapshot.tasks.length) return;
  const { t } = deck;
  const slide = deck.slide(t.tasks);
  deck.table(
    slide,
    t.taskColumns,
    snapshot.tasks.map((task) => [
      `${task.task + 1}. ${task.description}`,
      `${task.success} (${deck.fmt(pct(task.success_share), 0)}%)`,
      task.fail,
      deck.fmt(task.time_to_success.median, 1),
      deck.fmt(task.clicks_to_success, 1),
    ]),
  );
}

function benchmarkSlide(deck: Deck, snapshot: ReportSnapshot) {
  const b = snapshot.benchmark;
  if (!b) return;
  const { t } = deck;
  const slide = deck.slide(
    formatMessage(t.benchmarkTitle, { subtype: b.subtype }),
    formatMessage(t.benchmarkBase, { researches: b.researches, imported: b.imported }),
  );
  const byMetric = new Map(b.metrics.map((m) => [m.metric, m]));
  const rows = BENCHMARK_METRICS.flatMap((metric) => {
    const m = byMetric.get(metric);
    return m
      ? [[t.benchmark[metric], deck.fmt(m.value, 3), m.percentile === null ? t.none : deck.fmt(m.percentile, 0)]]
      : [];
  });
  deck.table(slide, t.benchmarkColumns, rows, TOP, [5, 3.5, W - 2 * MARGIN - 8.5]);
  const bars = BENCHMARK_METRICS.flatMap((metric) => {
    const p = byMetric.get(metric)?.percentile;
    return p === null || p === undefined ? [] : [{ label: t.benchmark[metric], value: p }];
  });
  if (bars.length) {
    deck.chart(slide, chartPng(barsOption(bars, '#d6336c'), CHART.width, 320), {
      x: MARGIN,
      y: TOP + 2.7,
      w: W - 2 * MARGIN,
      h: 3.2,
    });
  }
}

/** Choice questions as bars of their options' shares; numbers as their summary. */
function questionnaireSlides(deck: Deck, input: PresentationInput) {
  const { t } = deck;
  for (const questionnaire of input.questionnaires) {
    for (const [i, stats] of questionnaire.statistics.entries()) {
      const question = questionnaire.questions.find((q) => q.id === stats.id);
      if (!question || !stats.answered) continue;
      const title = `${i + 1}. ${textIn(question.text, input.language)}`;
      const subtitle = `${questionnaire.title} · ${formatMessage(t.answered, { n: stats.answered })}`;
      const options = 'options' in question && Array.isArray(question.options) ? question.options : [];
      if (stats.options.length && options.length) {
        const bars = stats.options.map((o) => ({
          label: textIn(options.find((opt: { id: string }) => opt.id === o.id)?.text, input.language) || o.id,
          value: o.share * 100,
        }));
        if (stats.other) bars.push({ label: '…', value: stats.other.share * 100 });
        const slide = deck.slide(title.length > 90 ? `${title.slice(0, 89)}…` : title, subtitle);
        const height = Math.min(520, 60 + bars.length * 44);
        deck.chart(slide, chartPng(barsOption(bars, '#1c7ed6'), CHART.width, height), {
          x: MARGIN,
          y: TOP,
          w: W - 2 * MARGIN,
          h: Math.min(H - TOP - 0.6, (height / CHART.width) * (W - 2 * MARGIN)),
        });
      } else if (stats.numbers?.mean !== null && stats.numbers?.mean !== undefined) {
        const n = stats.numbers;
        const slide = deck.slide(title.length > 90 ? `${title.slice(0, 89)}…` : title, subtitle);
        deck.table(
          slide,
          ['mean', 'median', 'sd', 'min', 'max'],
          [[n.mean, n.median, n.sd, n.min, n.max].map((v) => deck.fmt(v))],
        );
      }
    }
  }
}

function methodSlide(deck: Deck, input: PresentationInput) {
  const { t } = deck;
  const s = input.snapshot;
  const slide = deck.slide(t.method);
  const lines = [
    t.bandNote,
    `${t.types[input.type]}. ${formatMessage(t.step, { step: input.step })}.`,
    `${t.engineVersions}: ${s.engine_versions.join(', ') || t.none}`,
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
    curveSlides(deck, item, label);
    momentsTable(deck, item, label);
    heatmapSlides(deck, input, item, label);
    areasSlide(deck, item, label);
    await input.onProgress?.((i + 1) / (items.length + 1));
  }
  tasksSlide(deck, input.snapshot);
  benchmarkSlide(deck, input.snapshot);
  questionnaireSlides(deck, input);
  methodSlide(deck, input);
  return (await deck.pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
