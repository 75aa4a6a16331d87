import { z } from 'zod';
import { msg, msgBetween } from './messages.ts';

/**
 * What a research shows besides a video (spec section 3): the pictures gallery, the shelf
 * displays with their zones, and the website-prototype tasks. Images are referenced by the id of a
 * file uploaded to the research (`/mediaserver`); coordinates on an image are fractions of its
 * width and height (0–1), so they do not depend on the size the image is drawn at.
 */

/** Seconds a picture or a shelf display is shown when the analyst does not say otherwise. */
export const CONTENT_DEFAULTS = { pictureSeconds: 10, shelfSeconds: 10 } as const;

/** How much content a research holds; the editors show the same limits. */
export const CONTENT_LIMITS = {
  /** A picture's or a shelf's showing time, seconds. */
  seconds: { min: 1, max: 600 },
  /** A task's time limit, seconds. */
  taskTimeout: { min: 5, max: 3600 },
  pictures: 100,
  shelves: 50,
  zones: 100,
  tasks: 30,
  steps: 50,
  points: 20,
} as const;

const required = msg('validation.required');
const seconds = z
  .number({ error: required })
  .int(msg('validation.wholeSeconds'))
  .min(CONTENT_LIMITS.seconds.min, msgBetween(CONTENT_LIMITS.seconds))
  .max(CONTENT_LIMITS.seconds.max, msgBetween(CONTENT_LIMITS.seconds));
const imageRequired = msg('content.imageRequired');
const imageRef = z.string({ error: imageRequired }).min(1, imageRequired).max(64);
const fraction = z
  .number()
  .min(0, msgBetween({ min: 0, max: 1 }))
  .max(1, msgBetween({ min: 0, max: 1 }));
const requiredText = (max: number) =>
  z.string({ error: required }).trim().min(1, required).max(max, msg('validation.maxChars', { max }));

/** A point on an image, as fractions of its width and height. */
export const pointSchema = z.strictObject({ x: fraction, y: fraction });
export type Point = z.infer<typeof pointSchema>;

// ---------------------------------------------------------------------------------------------
// Pictures gallery (picture_gallery: images with their durations)

export const galleryItemSchema = z.strictObject({ image: imageRef, duration_seconds: seconds });
export const pictureGallerySchema = z
  .strictObject({
    items: z
      .array(galleryItemSchema)
      .max(CONTENT_LIMITS.pictures, msg('content.maxPictures', { max: CONTENT_LIMITS.pictures })),
  })
  .superRefine((gallery, ctx) => {
    const seen = new Set<string>();
    gallery.items.forEach((item, i) => {
      if (seen.has(item.image)) {
        ctx.addIssue({ code: 'custom', path: ['items', i, 'image'], message: msg('content.pictureTwice') });
      }
      seen.add(item.image);
    });
  });
export type PictureGallery = z.infer<typeof pictureGallerySchema>;

/**
 * The gallery holds every picture of the research, in its order: pictures no longer there leave
 * it, pictures not listed yet join at the end with the default duration.
 */
export function galleryWith(gallery: PictureGallery, pictureIds: readonly string[]): PictureGallery {
  const present = new Set(pictureIds);
  const items = gallery.items.filter((item) => present.has(item.image));
  const listed = new Set(items.map((item) => item.image));
  for (const id of pictureIds) {
    if (!listed.has(id)) items.push({ image: id, duration_seconds: CONTENT_DEFAULTS.pictureSeconds });
  }
  return { items };
}

// ---------------------------------------------------------------------------------------------
// Shelf: displays (shelf_content_scenario), each an image with zones; shelf_setting

/** An area of interest on a shelf image: a rectangle from its top-left corner. */
export const shelfZoneSchema = z
  .strictObject({
    name: requiredText(100),
    description: requiredText(500),
    x: fraction,
    y: fraction,
    width: fraction.refine((v) => v > 0, msgBetween({ min: 0, max: 1 })),
    height: fraction.refine((v) => v > 0, msgBetween({ min: 0, max: 1 })),
  })
  .superRefine((zone, ctx) => {
    // A small tolerance: the editor's rounding must not refuse a zone drawn to the very edge.
    if (zone.x + zone.width > 1.0001)
      ctx.addIssue({ code: 'custom', path: ['width'], message: msg('content.zoneOutside') });
    if (zone.y + zone.height > 1.0001) {
      ctx.addIssue({ code: 'custom', path: ['height'], message: msg('content.zoneOutside') });
    }
  });
export type ShelfZone = z.infer<typeof shelfZoneSchema>;

/** The key zone descriptions are compared by: case, spacing and letter forms do not make a new one. */
export function zoneDescriptionKey(description: string): string {
  return description.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}

export const shelfDisplaySchema = z
  .strictObject({
    id: z.string().min(1).max(64),
    name: requiredText(255),
    /** What the respondent is asked to do on this shelf, shown before it. */
    task: z
      .string()
      .trim()
      .max(2000, msg('validation.maxChars', { max: 2000 }))
      .default(''),
    duration_seconds: seconds.default(CONTENT_DEFAULTS.shelfSeconds),
    /** Goes on by itself when the time is up; otherwise the respondent moves on. */
    auto_display: z.boolean().default(true),
    image: imageRef,
    zones: z
      .array(shelfZoneSchema)
      .max(CONTENT_LIMITS.zones, msg('content.maxZones', { max: CONTENT_LIMITS.zones }))
      .default([]),
  })
  .superRefine((display, ctx) => {
    const seen = new Set<string>();
    display.zones.forEach((zone, i) => {
      const key = zoneDescriptionKey(zone.description);
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['zones', i, 'description'],
          message: msg('content.zoneDescriptionsUnique'),
        });
      }
      seen.add(key);
    });
  });
export type ShelfDisplay = z.infer<typeof shelfDisplaySchema>;

export const shelfContentScenarioSchema = z
  .array(shelfDisplaySchema)
  .max(CONTENT_LIMITS.shelves, msg('content.maxShelves', { max: CONTENT_LIMITS.shelves }));
export const shelfSettingSchema = z.strictObject({ isRandomOrder: z.boolean().default(false) });
export type ShelfSetting = z.infer<typeof shelfSettingSchema>;

// ---------------------------------------------------------------------------------------------
// Website-prototype tasks (settings.webResourceScenario)

/** Figma node ids: `12:345`, or `12-345` as they appear in links; instances add `;`-joined parts. */
const NODE_ID = /^I?\d+[:-]\d+(;\d+[:-]\d+)*$/;

export const webTaskStepSchema = z.strictObject({
  description: z
    .string()
    .trim()
    .max(1000, msg('validation.maxChars', { max: 1000 }))
    .default(''),
  isFinal: z.boolean().default(false),
  /** Set by the respondent flow when the step was reached; false in the builder. */
  handled: z.boolean().default(false),
  targetNodeId: z
    .string({ error: msg('content.nodeIdMissing') })
    .trim()
    .min(1, msg('content.nodeIdMissing'))
    .max(100)
    .regex(NODE_ID, msg('content.nodeIdInvalid')),
  previewFigma: z.string().max(2000).default(''),
});
export type WebTaskStep = z.infer<typeof webTaskStepSchema>;

export const webTaskSchema = z
  .strictObject({
    id: z.string().min(1).max(64),
    description: requiredText(2000),
    steps: z
      .array(webTaskStepSchema)
      .max(CONTENT_LIMITS.steps, msg('content.maxSteps', { max: CONTENT_LIMITS.steps }))
      .default([]),
    /** Any click completes the task (no steps). */
    anyIsFinal: z.boolean().default(false),
    /** The respondent may go on with the prototype after completing the task. */
    withContinuation: z.boolean().default(false),
    autoShowTaskDescription: z.boolean().default(true),
    /** Whether the time limit applies. */
    is_timeout: z.boolean().default(true),
    /** Time limit, seconds. */
    timeout: z
      .number({ error: required })
      .int(msg('validation.wholeSeconds'))
      .min(CONTENT_LIMITS.taskTimeout.min, msgBetween(CONTENT_LIMITS.taskTimeout))
      .max(CONTENT_LIMITS.taskTimeout.max, msgBetween(CONTENT_LIMITS.taskTimeout))
      .default(60),
    /** The screenshot the gaze heatmap and the points are drawn on. */
    image: z
      .string({ error: msg('content.screenshotRequired') })
      .min(1, msg('content.screenshotRequired'))
      .max(64),
    final_point: pointSchema.nullable().refine((p) => p !== null, msg('content.finalPointRequired')),
    additional_points: z
      .array(pointSchema)
      .max(CONTENT_LIMITS.points, msg('content.maxPoints', { max: CONTENT_LIMITS.points }))
      .default([]),
  })
  .superRefine((task, ctx) => {
    if (task.anyIsFinal && task.steps.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['steps'], message: msg('content.anyClickHasNoSteps') });
    }
    task.steps.forEach((step, i) => {
      if (!canAddStep(task.steps.slice(0, i), step.targetNodeId)) {
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'targetNodeId'], message: msg('content.stepTwice') });
      }
    });
    if (task.steps.length > 0 && !task.steps.some((step) => step.isFinal)) {
      ctx.addIssue({ code: 'custom', path: ['steps'], message: msg('content.finalStepMissing') });
    }
  });
export type WebTask = z.infer<typeof webTaskSchema>;
export type WebTaskInput = z.input<typeof webTaskSchema>;

export const webResourceScenarioSchema = z
  .array(webTaskSchema)
  .max(CONTENT_LIMITS.tasks, msg('content.maxTasks', { max: CONTENT_LIMITS.tasks }));

/** Node ids compare in their colon form: `12-345` in a link is the screen `12:345`. */
export function nodeIdKey(nodeId: string): string {
  return nodeId.trim().replaceAll('-', ':');
}

/** A step may join the task's list only when no step there targets the same screen. */
export function canAddStep(steps: readonly Pick<WebTaskStep, 'targetNodeId'>[], nodeId: string): boolean {
  const key = nodeIdKey(nodeId);
  return !steps.some((step) => nodeIdKey(step.targetNodeId) === key);
}

/** Turning any-click mode on empties the step list (spec section 5). */
export function withAnyClickMode<T extends { anyIsFinal: boolean; steps: unknown[] }>(task: T, on: boolean): T {
  return { ...task, anyIsFinal: on, steps: on ? [] : task.steps };
}

// ---------------------------------------------------------------------------------------------
// Figma embed (spec section 9: scaling contain, hotspot hints off, UI hidden)

export const FIGMA_EMBED_OPTIONS = { scaling: 'contain', 'hotspot-hints': '0', 'hide-ui': '1' } as const;
const FIGMA_LINK = /^https:\/\/(www\.)?figma\.com\/(proto|design|file)\/[A-Za-z0-9]{10,128}(\/[^?#]*)?([?#].*)?$/;

export function isFigmaLink(url: string): boolean {
  return FIGMA_LINK.test(url.trim());
}

/**
 * The address a Figma prototype is embedded at (Figma's embed host), with the spec's options.
 * Undefined when `url` is not a Figma link.
 */
export function figmaEmbedUrl(url: string, embedHost = 'emolens'): string | undefined {
  if (!isFigmaLink(url)) return undefined;
  const source = new URL(url.trim());
  const [, , key, ...rest] = source.pathname.split('/');
  const embed = new URL(`https://embed.figma.com/proto/${key}${rest.length ? `/${rest.join('/')}` : ''}`);
  for (const [name, value] of source.searchParams) embed.searchParams.set(name, value);
  embed.searchParams.set('embed-host', embedHost);
  for (const [name, value] of Object.entries(FIGMA_EMBED_OPTIONS)) embed.searchParams.set(name, value);
  return embed.toString();
}
