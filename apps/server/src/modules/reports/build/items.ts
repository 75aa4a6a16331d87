import {
  type ContentType,
  type PictureGallery,
  type ReportAreaInput,
  type ShelfDisplay,
  scaleShape,
  shapeBounds,
  type WebTask,
} from '@emolens/contracts';
import type { ReportsRepository } from '../reports.repository.ts';
import type { BuildItem } from './build.ts';

/**
 * A report's content items (what the build reports on) from the research's content and media: the video, the gallery's
 * pictures, the shelf's displays or the website's tasks, with their sizes, the shelf's zones and the areas drawn on
 * the report; and how a pooled research's items map onto them (decision 019).
 */
type Media = Awaited<ReturnType<ReportsRepository['media']>>[number];

type Area = BuildItem['areas'][number];

/** An area given as fractions of its item (a shelf's zone, a drawn area) in the item's pixels. */
function inPixels(
  area: { name: string; shape: ReportAreaInput['shape']; key_frames?: ReportAreaInput['key_frames'] },
  id: string,
  source: Area['source'],
  size: { width: number; height: number },
  { from, to }: { from: number | null; to: number | null },
): Area {
  const shape = scaleShape(area.shape, size.width, size.height);
  return {
    id,
    name: area.name,
    source,
    ...shapeBounds(shape),
    shape,
    key_frames: (area.key_frames ?? []).map((k) => ({ t: k.t, shape: scaleShape(k.shape, size.width, size.height) })),
    from,
    to,
  };
}

/** A shelf's zone as an area's shape. */
const zoneShape = (z: ShelfDisplay['zones'][number]) => ({
  name: z.name,
  shape: { kind: 'rectangle' as const, x: z.x, y: z.y, width: z.width, height: z.height },
});

/** The areas drawn on the report, added to their items (in item pixels), numbered after the item's zones. */
export function withDrawnAreas(items: BuildItem[], drawn: readonly ReportAreaInput[]): BuildItem[] {
  return items.map((item) => {
    const { width, height } = item;
    if (!width || !height) return item;
    const mine = drawn.filter((a) => a.item === item.index);
    return {
      ...item,
      areas: [
        ...item.areas,
        ...mine.map((a, k) => inPixels(a, String(item.areas.length + k + 1), 'drawn', { width, height }, a)),
      ],
    };
  });
}

/** The report's content items, by the index the engine's series use (decision 006's content, in its order). */
export function itemsOf(
  content: {
    content_type: ContentType;
    settings: Record<string, unknown>;
    picture_gallery: PictureGallery;
    shelf_content_scenario: ShelfDisplay[];
  },
  media: Media[],
): { timeline: string; items: BuildItem[] } {
  const byId = new Map(media.map((m) => [m.id, m]));
  const image = (
    index: number,
    id: string | undefined,
    label: string,
    zones: ShelfDisplay['zones'] = [],
  ): BuildItem => {
    const m = id ? byId.get(id) : undefined;
    const width = m?.width ?? null;
    const height = m?.height ?? null;
    return {
      index,
      label,
      media_id: m ? m.id : null,
      width,
      height,
      seconds: null,
      // Zones are fractions of the image: in its pixels once its size is known.
      areas:
        width && height
          ? zones.map((z, i) =>
              inPixels(zoneShape(z), String(i + 1), 'zone', { width, height }, { from: null, to: null }),
            )
          : [],
    };
  };
  switch (content.content_type) {
    case 'video': {
      const video = media.find((m) => m.kind === 'video' && m.role === 'content');
      return {
        timeline: 'video',
        items: [
          {
            index: 0,
            label: video?.filename ?? '',
            media_id: video?.id ?? null,
            width: video?.width ?? null,
            height: video?.height ?? null,
            seconds: video?.duration_seconds ?? null,
            areas: [],
          },
        ],
      };
    }
    case 'pictures': {
      // The respondent's player shows the gallery's pictures that exist, in order: that position is the index.
      const shown = content.picture_gallery.items.filter((item) => byId.has(item.image));
      return {
        timeline: 'pictures',
        items: shown.map((item, i) => image(i, item.image, byId.get(item.image)?.filename ?? '')),
      };
    }
    case 'shelf':
      return {
        timeline: 'shelf',
        items: content.shelf_content_scenario.map((display, i) => image(i, display.image, display.name, display.zones)),
      };
    case 'site': {
      const tasks = (content.settings.webResourceScenario ?? []) as WebTask[];
      return {
        timeline: 'site',
        items: tasks.map((task, i) => image(i, task.image ?? undefined, task.description)),
      };
    }
    default:
      return {
        timeline: 'contentless',
        items: [
          {
            index: 0,
            label: '',
            media_id: null,
            width: null,
            height: null,
            seconds: Number(content.settings.contentVideoDuration ?? 0) || null,
            areas: [],
          },
        ],
      };
  }
}

/**
 * Per item index, how another research's item pixels map onto the report's item (matched by position): x and y
 * factors; none where either size is unknown.
 */
export function scalesOnto(items: readonly BuildItem[], theirs: readonly BuildItem[]) {
  const scales = new Map<number, { x: number; y: number }>();
  for (const item of items) {
    const other = theirs.find((t) => t.index === item.index);
    if (item.width && item.height && other?.width && other.height) {
      scales.set(item.index, { x: item.width / other.width, y: item.height / other.height });
    }
  }
  return scales;
}
