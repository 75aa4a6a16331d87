import { z } from 'zod';
import { REQUIRED_MESSAGE } from './auth.ts';

/**
 * What a research shows besides a video (spec section 3): the pictures gallery, the shelf
 * displays with their zones, and the website-prototype tasks. Images are referenced by the id of a
 * file uploaded to the research (`/mediaserver`); coordinates on an image are fractions of its
 * width and height (0–1), so they do not depend on the size the image is drawn at.
 */

export const CONTENT_MESSAGES = {
  pictureTwice: 'This picture is already in the gallery',
  zoneDescriptionsUnique: 'Zone descriptions must be unique',
  zoneOutside: 'The zone must lie inside the image',
  stepTwice: "This step is already in the task's list",
  nodeIdMissing: 'Enter the node id of the prototype screen',
  nodeIdInvalid: 'A node id looks like 12:345',
  finalStepMissing: 'Mark the step that completes the task',
  anyClickHasNoSteps: 'In any-click mode the task has no steps',
  screenshotRequired: 'Upload a screenshot for the task',
  finalPointRequired: 'Set the final point on the screenshot',
  imageRequired: 'Choose an image',
  imageUnknown: 'The image is not a picture uploaded to this research',
  figmaUrl: 'Enter a link to a Figma prototype (https://www.figma.com/proto/…)',
} as const;

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

const between = ({ min, max }: { min: number; max: number }) => `must be between ${min} and ${max}`;
const seconds = z
  .number({ error: REQUIRED_MESSAGE })
  .int('Enter a whole number of seconds')
  .min(CONTENT_LIMITS.seconds.min, between(CONTENT_LIMITS.seconds))
  .max(CONTENT_LIMITS.seconds.max, between(CONTENT_LIMITS.seconds));
const imageRef = z.string({ error: CONTENT_MESSAGES.imageRequired }).min(1, CONTENT_MESSAGES.imageRequired).max(64);
const fraction = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const requiredText = (max: number) =>
  z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(max, `At most ${max} characters`);

/** A point on an image, as fractions of its width and height. */
export const pointSchema = z.strictObject({ x: fraction, y: fraction });
export type Point = z.infer<typeof pointSchema>;

// ---------------------------------------------------------------------------------------------
// Pictures gallery (picture_gallery: images with their durations)

export const galleryItemSchema = z.strictObject({ image: imageRef, duration_seconds: seconds });
export const pictureGallerySchema = z
  .strictObject({
    items: z.array(galleryItemSchema).max(CONTENT_LIMITS.pictures, `At most ${CONTENT_LIMITS.pictures} pictures`),
  })
  .superRefine((gallery, ctx) => {
    const seen = new Set<string>();
    gallery.items.forEach((item, i) => {
      if (seen.has(item.image)) {
        ctx.addIssue({ code: 'custom', path: ['items', i, 'image'], message: CONTENT_MESSAGES.pictureTwice });
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
    width: fraction.refine((v) => v > 0, 'must be between 0 and 1'),
    height: fraction.refine((v) => v > 0, 'must be between 0 and 1'),
  })
  .superRefine((zone, ctx) => {
    // A small tolerance: the editor's rounding must not refuse a zone drawn to the very edge.
    if (zone.x + zone.width > 1.0001)
      ctx.addIssue({ code: 'custom', path: ['width'], message: CONTENT_MESSAGES.zoneOutside });
    if (zone.y + zone.height > 1.0001) {
      ctx.addIssue({ code: 'custom', path: ['height'], message: CONTENT_MESSAGES.zoneOutside });
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
    task: z.string().trim().max(2000, 'At most 2000 characters').default(''),
    duration_seconds: seconds.default(CONTENT_DEFAULTS.shelfSeconds),
    /** Goes on by itself when the time is up; otherwise the respondent moves on. */
    auto_display: z.boolean().default(true),
    image: imageRef,
    zones: z.array(shelfZoneSchema).max(CONTENT_LIMITS.zones, `At most ${CONTENT_LIMITS.zones} zones`).default([]),
  })
  .superRefine((display, ctx) => {
    const seen = new Set<string>();
    display.zones.forEach((zone, i) => {
      const key = zoneDescriptionKey(zone.description);
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['zones', i, 'description'],
          message: CONTENT_MESSAGES.zoneDescriptionsUnique,
        });
      }
      seen.add(key);
    });
  });
export type ShelfDisplay = z.infer<typeof shelfDisplaySchema>;

export const shelfContentScenarioSchema = z
  .array(shelfDisplaySchema)
  .max(CONTENT_LIMITS.shelves, `At most ${CONTENT_LIMITS.shelves} shelves`);
export const shelfSettingSchema = z.strictObject({ isRandomOrder: z.boolean().default(false) });
export type ShelfSetting = z.infer<typeof shelfSettingSchema>;

// ---------------------------------------------------------------------------------------------
// Website-prototype tasks (settings.webResourceScenario)

/** Figma node ids: `12:345`, or `12-345` as they appear in links; instances add `;`-joined parts. */
const NODE_ID = /^I?\d+[:-]\d+(;\d+[:-]\d+)*$/;

export const webTaskStepSchema = z.strictObject({
  description: z.string().trim().max(1000, 'At most 1000 characters').default(''),
  isFinal: z.boolean().default(false),
  /** Set by the respondent flow when the step was reached; false in the builder. */
  handled: z.boolean().default(false),
  targetNodeId: z
    .string({ error: CONTENT_MESSAGES.nodeIdMissing })
    .trim()
    .min(1, CONTENT_MESSAGES.nodeIdMissing)
    .max(100)
    .regex(NODE_ID, CONTENT_MESSAGES.nodeIdInvalid),
  previewFigma: z.string().max(2000).default(''),
});
export type WebTaskStep = z.infer<typeof webTaskStepSchema>;

export const webTaskSchema = z
  .strictObject({
    id: z.string().min(1).max(64),
    description: requiredText(2000),
    steps: z.array(webTaskStepSchema).max(CONTENT_LIMITS.steps, `At most ${CONTENT_LIMITS.steps} steps`).default([]),
    /** Any click completes the task (no steps). */
    anyIsFinal: z.boolean().default(false),
    /** The respondent may go on with the prototype after completing the task. */
    withContinuation: z.boolean().default(false),
    autoShowTaskDescription: z.boolean().default(true),
    /** Whether the time limit applies. */
    is_timeout: z.boolean().default(true),
    /** Time limit, seconds. */
    timeout: z
      .number({ error: REQUIRED_MESSAGE })
      .int('Enter a whole number of seconds')
      .min(CONTENT_LIMITS.taskTimeout.min, between(CONTENT_LIMITS.taskTimeout))
      .max(CONTENT_LIMITS.taskTimeout.max, between(CONTENT_LIMITS.taskTimeout))
      .default(60),
    /** The screenshot the gaze heatmap and the points are drawn on. */
    image: z.string({ error: CONTENT_MESSAGES.screenshotRequired }).min(1, CONTENT_MESSAGES.screenshotRequired).max(64),
    final_point: pointSchema.nullable().refine((p) => p !== null, CONTENT_MESSAGES.finalPointRequired),
    additional_points: z
      .array(pointSchema)
      .max(CONTENT_LIMITS.points, `At most ${CONTENT_LIMITS.points} points`)
      .default([]),
  })
  .superRefine((task, ctx) => {
    if (task.anyIsFinal && task.steps.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['steps'], message: CONTENT_MESSAGES.anyClickHasNoSteps });
    }
    task.steps.forEach((step, i) => {
      if (!canAddStep(task.steps.slice(0, i), step.targetNodeId)) {
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'targetNodeId'], message: CONTENT_MESSAGES.stepTwice });
      }
    });
    if (task.steps.length > 0 && !task.steps.some((step) => step.isFinal)) {
      ctx.addIssue({ code: 'custom', path: ['steps'], message: CONTENT_MESSAGES.finalStepMissing });
    }
  });
export type WebTask = z.infer<typeof webTaskSchema>;
export type WebTaskInput = z.input<typeof webTaskSchema>;

export const webResourceScenarioSchema = z
  .array(webTaskSchema)
  .max(CONTENT_LIMITS.tasks, `At most ${CONTENT_LIMITS.tasks} tasks`);

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
