import {
  builtShape,
  formatMessage,
  type HeatmapGrid,
  type HeatmapTheme,
  type ReportItem,
  shapeAt,
  shapeBounds,
} from '@emolens/contracts';
import { BODY, type Deck, DIM } from './deck.ts';
import { type AreaOutline, heatmapPicture } from './render.ts';

/** What the heatmap slides draw the item over. */
export interface HeatmapContent {
  theme: HeatmapTheme;
  /** The picture, or a still of the video (the render child takes one from its middle). */
  picture: { bytes: Uint8Array; mime: string } | null;
  /** A video's frames at its key moments: second → PNG. */
  frames: Map<number, Uint8Array> | undefined;
  /** Seconds per point of the report (a video's per-point heatmaps). */
  step: number;
}

/**
 * The item's areas of interest to outline, numbered as the areas table numbers them; at `second`, those whose window
 * holds it, a moving one where it is then (on the whole item's picture, where it starts).
 */
function outlines(item: ReportItem, second?: number): AreaOutline[] {
  return item.areas
    .filter((a) => second === undefined || ((a.from ?? 0) <= second && second < (a.to ?? Number.POSITIVE_INFINITY)))
    .map((a) => {
      const shape = shapeAt({ shape: builtShape(a), key_frames: a.key_frames }, second ?? a.key_frames?.[0]?.t ?? 0);
      return {
        ...shapeBounds(shape),
        points: shape.kind === 'polygon' ? shape.points : undefined,
        label: a.id,
      };
    });
}

/**
 * Where people looked: the whole item's heatmap over its content (the picture, or a still of the video) with the
 * areas of interest outlined; for a video also its frames at the key moments, each with that point's heatmap and
 * the areas counting then.
 */
export function heatmapSlides(deck: Deck, content: HeatmapContent, item: ReportItem, label: string) {
  const { t } = deck;
  if (!item.width || !item.height || !item.gaze_respondents) return;
  const size = { width: item.width, height: item.height };
  const note = formatMessage(t.heatmapNote, {
    n: item.gaze_respondents,
    px: item.kernel_px === null ? t.none : deck.format.number(Math.round(item.kernel_px)),
  });
  const options = { theme: content.theme, opacity: 0.7 };
  if (item.heatmap) {
    const slide = deck.slide(t.heatmap, label);
    deck.image(
      slide,
      heatmapPicture(content.picture, size, item.heatmap, { ...options, width: 1600, areas: outlines(item) }),
    );
    deck.note(slide, note);
  }
  const frames = [...(content.frames?.entries() ?? [])].slice(0, 3);
  if (!frames.length || !item.heatmap_frames?.length) return;
  const grids = item.heatmap_frames;
  const slide = deck.slide(`${t.heatmap} · ${t.moments}`, label);
  const gap = 0.2;
  const w = (BODY.w - (frames.length - 1) * gap) / frames.length;
  frames.forEach(([second, frame], i) => {
    const grid: HeatmapGrid | null = grids[Math.min(grids.length - 1, Math.floor(second / content.step))] ?? null;
    const image = heatmapPicture({ bytes: frame, mime: 'image/png' }, size, grid, {
      ...options,
      width: 900,
      areas: outlines(item, second),
    });
    const box = deck.image(slide, image, { x: BODY.x + i * (w + gap), y: BODY.y, w, h: BODY.h - 0.4 });
    slide.addText(deck.seconds(second), {
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
}
