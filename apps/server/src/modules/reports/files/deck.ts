import { type Language, type ReportFormat, reportFormat } from '@emolens/contracts';
import PptxGenJS from 'pptxgenjs';
import { pngSize } from './png.ts';
import type { FileTexts } from './texts.ts';

/** Slides of 13.33 × 7.5 in; content below the title from y = 1.25 in. */
export const W = 13.33;
export const H = 7.5;
export const MARGIN = 0.5;
export const TOP = 1.25;
export const INK = '212529';
export const DIM = '868E96';
export const ACCENT = 'D6336C';
/** The body of a slide under its title, above its note. */
export const BODY = { x: MARGIN, y: TOP, w: W - 2 * MARGIN, h: H - TOP - 0.9 } as const;

type Area = { x: number; y: number; w: number; h: number };

export const png = (bytes: Uint8Array) => `image/png;base64,${Buffer.from(bytes).toString('base64')}`;

/** An image box of `ratio` (width / height) as large as fits in the given area, centred (or at its top). */
export function fit(ratio: number, area: Area, top = false) {
  const w = Math.min(area.w, area.h * ratio);
  const h = w / ratio;
  return { x: area.x + (area.w - w) / 2, y: top ? area.y : area.y + (area.h - h) / 2, w, h };
}

/**
 * The presentation being made: its slides, the texts and number format of its language. Every image keeps its own
 * aspect ratio (read from the PNG), whatever box it is given.
 */
export class Deck {
  readonly pptx = new PptxGenJS();
  readonly font: string;
  readonly format: ReportFormat;

  constructor(
    readonly t: FileTexts,
    readonly language: Language,
  ) {
    this.pptx.layout = 'LAYOUT_WIDE';
    this.font = language === 'ko' ? 'Malgun Gothic' : 'Arial';
    this.format = reportFormat(language);
  }

  /** A time in seconds, in the language ("1,5 с"). */
  seconds(value: number | null | undefined): string {
    return this.t.seconds.replace('{value}', this.format.number(value));
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

  /**
   * A PNG as large as fits in `area` (the slide's body by default) at its own aspect ratio, centred or at the area's
   * top; the box it got.
   */
  image(slide: PptxGenJS.Slide, image: Uint8Array, area: Area = BODY, top = false) {
    const { width, height } = pngSize(image);
    const box = fit(width / height, area, top);
    slide.addImage({ data: png(image), ...box });
    return box;
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
