import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Language } from '@emolens/contracts';
import { ffmpegPaths } from '@emolens/engine';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileCurvesOption } from './charts.ts';
import { pngSize } from './png.ts';
import { fixtureFrames, fixtureQuestionnaire, fixtureSnapshot } from './presentation.fixture.ts';
import { buildPresentation } from './presentation.ts';
import { FILE_TEXTS } from './texts.ts';
import { videoFrame } from './video.ts';

/**
 * The presentation as a customer opens it (issue 28, items 4 and 7): each picture at its own aspect ratio, the
 * grey-bars caption only under charts with bars, the heatmap over the content with its areas of interest, every
 * header and unit in the deck's language, numbers written as the cabinet writes them.
 */
let dir: string;
let frames: Map<number, Uint8Array>;
let still: Uint8Array;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'emolens-presentation-'));
  const made = await fixtureFrames(dir);
  frames = made.frames;
  still = await videoFrame(made.video, 2, 960);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Slide {
  text: string;
  pictures: { png: Uint8Array; cx: number; cy: number }[];
}

const decks = new Map<Language, Promise<Slide[]>>();
/** The fixture's deck in a language (made once). */
function deck(language: Language): Promise<Slide[]> {
  const made = decks.get(language) ?? slidesOf(language);
  decks.set(language, made);
  return made;
}

/** The deck's slides in order: their text, and each picture with its box on the slide (EMU). */
async function slidesOf(language: Language): Promise<Slide[]> {
  const snapshot = fixtureSnapshot();
  const media = snapshot.items[0]?.media_id as string;
  const bytes = await buildPresentation({
    name: 'Spring launch',
    research: 'Spring',
    project: 'Beer',
    type: 'shift',
    step: 1,
    builtAt: new Date('2026-11-20T00:00:00Z'),
    snapshot,
    language,
    theme: 'colour',
    pictures: new Map([[media, { bytes: still, mime: 'image/png' }]]),
    frames: new Map([[0, frames]]),
    questionnaires: [fixtureQuestionnaire()],
  });
  const zip = unzipSync(new Uint8Array(bytes));
  const count = Object.keys(zip).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).length;
  return Array.from({ length: count }, (_, i) => {
    const xml = strFromU8(zip[`ppt/slides/slide${i + 1}.xml`] as Uint8Array);
    const rels = strFromU8(zip[`ppt/slides/_rels/slide${i + 1}.xml.rels`] as Uint8Array);
    const target = (id: string) => new RegExp(`Id="${id}"[^>]*Target="../media/([^"]+)"`).exec(rels)?.[1];
    const pictures = [...xml.matchAll(/<p:pic>(.*?)<\/p:pic>/gs)].map(([pic]) => {
      const embed = /r:embed="(\w+)"/.exec(pic)?.[1] ?? '';
      const [, cx, cy] = /<a:ext cx="(\d+)" cy="(\d+)"/.exec(pic) ?? [];
      return { png: zip[`ppt/media/${target(embed)}`] as Uint8Array, cx: Number(cx), cy: Number(cy) };
    });
    // A paragraph's runs joined; paragraphs (titles, notes, table cells) apart.
    const text = [...xml.matchAll(/<a:p>(.*?)<\/a:p>/gs)]
      .map(([p]) => [...p.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join(''))
      .filter(Boolean)
      .join(' | ');
    return { text, pictures };
  });
}

const titled = (slides: Slide[], title: string) => slides.filter((s) => s.text.startsWith(`${title} |`));

/** How white a picture is around a point: the brightest of the darkest channel within two pixels across. */
const whiteness = (img: ReturnType<typeof rgb>, x: number, y: number) =>
  Math.max(...[-2, -1, 0, 1, 2].map((dx) => Math.min(...img.pixel(x + dx, y))));

/** A PNG's pixels as RGB, by ffmpeg. */
function rgb(png: Uint8Array): { width: number; pixel: (x: number, y: number) => [number, number, number] } {
  const { width } = pngSize(png);
  const raw = execFileSync(
    ffmpegPaths().ffmpeg,
    [...['-v', 'error', '-f', 'png_pipe', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']],
    { input: png, maxBuffer: 64 * 1024 * 1024 },
  );
  return {
    width,
    pixel: (x, y) => {
      const at = (Math.round(y) * width + Math.round(x)) * 3;
      return [raw[at] ?? 0, raw[at + 1] ?? 0, raw[at + 2] ?? 0];
    },
  };
}

describe('the presentation', { timeout: 120_000 }, () => {
  it('keeps every picture at its own aspect ratio: curves, bars of any height, heatmaps', async () => {
    const slides = await deck('en');
    const pictures = slides.flatMap((s) => s.pictures);
    // Curves, expressions, segments, the heatmap, two key-moment frames, benchmark bars, question bars.
    expect(pictures.length).toBeGreaterThanOrEqual(8);
    for (const picture of pictures) {
      const { width, height } = pngSize(picture.png);
      expect(picture.cx / picture.cy).toBeCloseTo(width / height, 2);
    }
    // The bar charts are as tall as their bars, not the curves' 1200 × 500.
    const bars = titled(slides, '1. Which brand do you buy?')[0]?.pictures[0];
    expect(bars && pngSize(bars.png).height / pngSize(bars.png).width).toBeLessThan(0.25);
  });

  it('says “grey area: N” only under the charts that draw it', async () => {
    const slides = await deck('en');
    const nBars = 'Grey area at the bottom: N';
    expect(titled(slides, 'Engagement, valence and attention')[0]?.text).toContain(nBars);
    expect(titled(slides, 'Expressions')[0]?.text).toContain(nBars);
    const segments = titled(slides, 'Engagement by segment')[0]?.text;
    expect(segments).toContain('Each segment’s N is in the legend.');
    expect(segments).not.toContain(nBars);
    expect(segments).not.toContain('grey area');
  });

  it('draws the heatmap over the content (the picture or a still of the video) with the areas of interest', async () => {
    const slides = await deck('en');
    const [heatmap] = titled(slides, 'Where people looked');
    const picture = heatmap?.pictures[0];
    expect(picture).toBeDefined();
    const image = rgb(picture?.png as Uint8Array);
    const scale = image.width / 640;
    // The video's still is behind it: the test pattern's yellow bar, not the grey box of a missing picture.
    const [r, g, b] = image.pixel(370 * scale, 60 * scale);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeGreaterThan(180);
    expect(b).toBeLessThan(90);
    // Area 1 (32, 16, 160 × 80): its white outline on its left edge, half-way down.
    expect(whiteness(image, 32 * scale, 56 * scale)).toBeGreaterThan(200);
    // The key moments' frames carry the areas counting at that second: area 2 (from 2 s) on the frame of 2 s only.
    const [moments] = titled(slides, 'Where people looked · Key moments');
    expect(moments?.text).toContain('1 s');
    const [first, second] = (moments?.pictures ?? []).map((p) => rgb(p.png));
    if (!first || !second) throw new Error('two key moments expected');
    const edge = (img: ReturnType<typeof rgb>) => whiteness(img, 400 * (img.width / 640), 220 * (img.width / 640));
    expect(edge(second)).toBeGreaterThan(200);
    expect(edge(first)).toBeLessThan(200);
  });

  it('in Russian: every table header and unit in Russian, numbers written as the cabinet writes them', async () => {
    const slides = await deck('ru');
    const numbers = titled(slides, '2. Бутылок в неделю')[0]?.text ?? '';
    for (const header of ['Среднее', 'Медиана', 'Стандартное отклонение', 'Минимум', 'Максимум']) {
      expect(numbers).toContain(header);
    }
    expect(numbers).not.toMatch(/\b(mean|median|sd|min|max)\b/);
    expect(numbers).toContain('2,42');
    // The areas table: 4,25 fixations as in the cabinet (not 4,3), shares as Russian percents, seconds as «с».
    const areas = titled(slides, 'Зоны интереса')[0]?.text ?? '';
    expect(areas).toContain('4,25');
    expect(areas).toContain('92\u00a0% (11/12)');
    expect(areas).toContain('Pack shot (2–4 с)');
    expect(titled(slides, 'Куда смотрели · Ключевые моменты')[0]?.text).toContain('1 с');
    // The benchmark's table and bars agree: the percentile 91.66 is 92 in both (the bars are checked by their
    // labels' format below), its mean engagement a Russian percent.
    const benchmark = titled(slides, 'Бенчмарк: Beer ads')[0]?.text ?? '';
    expect(benchmark).toContain('45,8\u00a0%');
    expect(benchmark).toContain('| 92 |');
    expect(slides.map((s) => s.text).join('\n')).not.toMatch(/\d s\b/);
  });
});

describe('the charts of the presentation', () => {
  const item = fixtureSnapshot().items[0];
  if (!item) throw new Error('no item');
  const base = { texts: FILE_TEXTS.en, language: 'en' as const, type: 'shift' as const, step: 1 };
  type Axis = { min?: number; max?: number; interval?: number; name?: string };
  type Series = { id: string; markPoint?: { data: { label?: { show: boolean; formatter: string } }[] } };

  it('draw the cabinet’s curves once: N on its axis to four times the largest, moments named, no tooltip', () => {
    const option = fileCurvesOption(item, { ...base, metrics: ['engagement', 'valence', 'attention'] });
    const series = option.series as Series[];
    const top = Math.max(...item.curves.engagement.n);
    expect((option.yAxis as Axis[])[1]).toMatchObject({ name: 'N', min: 0, max: 4 * top, interval: top });
    // Valence's −1..1 with engagement's 0..1: the union of the metrics' ranges.
    expect((option.yAxis as Axis[])[0]).toMatchObject({ min: -1, max: 1 });
    expect(series.map((s) => s.id)).toContain('n:engagement');
    expect(series.some((s) => s.id === 'cursor')).toBe(false);
    expect(option.tooltip).toBeUndefined();
    const marks = series.find((s) => s.id === 'mean:engagement')?.markPoint?.data ?? [];
    expect(marks.length).toBe(item.moments.length);
    for (const mark of marks) expect(['Peak', 'Drop']).toContain(mark.label?.formatter);
  });

  it('fit the expressions’ small shares within 0..1, and leave N out where the legend names it', () => {
    const expressions = fileCurvesOption(item, { ...base, metrics: ['happy', 'sad'], fit: true });
    const [values] = expressions.yAxis as Axis[];
    const top = Math.max(...[item.curves.happy, item.curves.sad].flatMap((c) => c.high.map((v) => v ?? 0)));
    expect(values?.min).toBe(0);
    expect(values?.max).toBeGreaterThanOrEqual(top);
    expect(values?.max).toBeLessThanOrEqual(1);
    const segments = fileCurvesOption(item, { ...base, metrics: ['engagement'], compare: true, showN: false });
    expect((segments.yAxis as Axis[]).length).toBe(1);
    expect((segments.series as Series[]).some((s) => s.id.startsWith('n:'))).toBe(false);
    expect(segments.legend).toMatchObject({ data: item.segments.map((_s) => expect.stringMatching(/\(N = \d+\)$/)) });
  });
});
