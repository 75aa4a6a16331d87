import { z } from 'zod';
import { type AreaShape, isSimplePolygon, sameShapeKind } from './area-geometry.ts';
import { msg } from './messages.ts';

export * from './area-geometry.ts';

/**
 * Areas of interest an analyst draws on a built report's pictures, shelf images, screenshots or video frames
 * (issue 13; issue 31, item 5; decision 044): a rectangle or a polygon in fractions of the item, and on a video a
 * time window and key frames between which the shape moves linearly.
 */
export const REPORT_AREA_LIMIT = 30;
/** A polygon's points, at least and at most. */
export const AREA_POLYGON_POINTS = { min: 3, max: 40 } as const;
/** Key frames of one moving area, at most. */
export const AREA_KEY_FRAME_LIMIT = 60;

const fraction = z
  .number(msg('validation.number'))
  .min(0, msg('validation.between', { first: 0, second: 1 }))
  .max(1, msg('validation.between', { first: 0, second: 1 }));
const windowSecond = z
  .number(msg('validation.number'))
  .min(0, msg('validation.between', { first: 0, second: 86_400 }))
  .max(86_400, msg('validation.between', { first: 0, second: 86_400 }));
const positive = fraction.refine((v) => v > 0, msg('validation.between', { first: 0, second: 1 }));

const rectangleInput = z
  .strictObject({ kind: z.literal('rectangle'), x: fraction, y: fraction, width: positive, height: positive })
  .superRefine((r, ctx) => {
    // The editor's rounding may end a rectangle a hair past the edge.
    if (r.x + r.width > 1.0001) ctx.addIssue({ code: 'custom', path: ['width'], message: msg('content.zoneOutside') });
    if (r.y + r.height > 1.0001) {
      ctx.addIssue({ code: 'custom', path: ['height'], message: msg('content.zoneOutside') });
    }
  });
const pointsMessage = msg('report.areaPolygonPoints', AREA_POLYGON_POINTS);
const polygonInput = z
  .strictObject({
    kind: z.literal('polygon'),
    points: z
      .array(z.strictObject({ x: fraction, y: fraction }), pointsMessage)
      .min(AREA_POLYGON_POINTS.min, pointsMessage)
      .max(AREA_POLYGON_POINTS.max, pointsMessage),
  })
  .superRefine((p, ctx) => {
    if (p.points.length >= AREA_POLYGON_POINTS.min && !isSimplePolygon(p.points)) {
      ctx.addIssue({ code: 'custom', path: ['points'], message: msg('report.areaPolygonCrossing') });
    }
  });
/** An area's shape in fractions of its item: a rectangle from its top-left corner, or a simple polygon. */
export const areaShapeInput = z.discriminatedUnion('kind', [rectangleInput, polygonInput], msg('validation.choice'));

export const areaKeyFrameInput = z.strictObject({ t: windowSecond, shape: areaShapeInput });

const areaItem = z.number(msg('validation.number')).int(msg('validation.wholeNumber')).min(0).max(999);
const areaName = z
  .string(msg('validation.required'))
  .trim()
  .min(1, msg('validation.required'))
  .max(100, msg('validation.maxChars', { max: 100 }));

export const reportAreaInput = z
  .strictObject({
    /** The item's index in the report (a picture, a shelf image, a task's screenshot, the video). */
    item: areaItem,
    name: areaName,
    /** Its shape; a moving area's is its first key frame's (the server stores them so). */
    shape: areaShapeInput,
    /**
     * A video's moving area: its shape at moments (s, on the window's clock), in time order, each of the same kind
     * (a polygon with as many points); between two the shape moves linearly, before the first and after the last it
     * stays. Empty: the area stands still.
     */
    key_frames: z
      .array(areaKeyFrameInput)
      .max(AREA_KEY_FRAME_LIMIT, msg('validation.maxItems', { max: AREA_KEY_FRAME_LIMIT }))
      .default([]),
    /** A video's area: the time window (s from the respondent's first gaze on the video) it counts in; null: all. */
    from: windowSecond.nullable().default(null),
    to: windowSecond.nullable().default(null),
  })
  .superRefine((a, ctx) => {
    if (a.from !== null && a.to !== null && a.to <= a.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: msg('report.areaWindow') });
    }
    a.key_frames.forEach((frame, i) => {
      const before = a.key_frames[i - 1];
      if (before && frame.t <= before.t) {
        ctx.addIssue({ code: 'custom', path: ['key_frames', i, 't'], message: msg('report.areaKeyFrameOrder') });
      }
      if (!sameShapeKind(frame.shape, a.shape)) {
        ctx.addIssue({ code: 'custom', path: ['key_frames', i, 'shape'], message: msg('report.areaKeyFrameShape') });
      }
    });
  });
export type ReportAreaInput = z.infer<typeof reportAreaInput>;
export type ReportAreaDraft = z.input<typeof reportAreaInput>;

/**
 * The area as it was sent before shapes (decision 044): a flat rectangle `{ item, name, x, y, width, height, from?,
 * to? }`. Still accepted, and made the rectangle shape here, the one place that converts it.
 */
export const flatRectangleAreaInput = z
  .strictObject({
    item: areaItem,
    name: areaName,
    x: fraction,
    y: fraction,
    width: positive,
    height: positive,
    from: windowSecond.nullable().default(null),
    to: windowSecond.nullable().default(null),
  })
  .transform(
    ({ x, y, width, height, ...area }): z.input<typeof reportAreaInput> => ({
      ...area,
      shape: { kind: 'rectangle', x, y, width, height },
      key_frames: [],
    }),
  )
  .pipe(reportAreaInput);

/**
 * PUT /api/cabinet/reports/{id}/areas/ — the drawn areas, whole; the report is built again with them. Each area in
 * the shape form, or in the flat rectangle form sent before shapes (`flatRectangleAreaInput`).
 */
export const reportAreasInput = z.strictObject({
  areas: z
    .array(z.union([reportAreaInput, flatRectangleAreaInput]))
    .max(REPORT_AREA_LIMIT, msg('validation.maxItems', { max: REPORT_AREA_LIMIT })),
});

/** A shape in item pixels, as the built report gives it. */
export const areaShapeOutput: z.ZodType<AreaShape> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rectangle'), x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  z.object({ kind: z.literal('polygon'), points: z.array(z.object({ x: z.number(), y: z.number() })) }),
]);

/**
 * A built area's outline, in item pixels: `x`…`height` the rectangle around its (first) shape; `shape` and
 * `key_frames` absent on reports built before areas had shapes (the rectangle is the area).
 */
export const reportAreaOutline = {
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  shape: areaShapeOutput.optional(),
  key_frames: z.array(z.object({ t: z.number(), shape: areaShapeOutput })).optional(),
};

/** A built area's shape: its `shape`, or on an old report its rectangle. */
export function builtShape(a: { x: number; y: number; width: number; height: number; shape?: AreaShape }): AreaShape {
  return a.shape ?? { kind: 'rectangle', x: a.x, y: a.y, width: a.width, height: a.height };
}
