import { z } from 'zod';
import { msg } from './messages.ts';
import { keysetCursor } from './paging.ts';

/**
 * In-cabinet notifications (issue 15, item 6): the bell in the cabinet's header lists what happened to the user's
 * projects — moderation decisions, finished collections, reports built or failed, failed video processes, a low
 * balance — newest first, with an unread count. A notification carries its kind and the parameters its text is
 * filled with (the web app holds the texts per kind, in every language), and the cabinet page it leads to.
 */
export const NOTIFICATION_KINDS = [
  'moderation_approved',
  'moderation_returned',
  'collection_finished',
  'report_built',
  'report_failed',
  'process_failed',
  'balance_low',
  'balance_exhausted',
  'access_requested',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a notification's text is filled with, by placeholder name (`{ report: 'Launch test', research: 'Ad' }`). */
export type NotificationParams = Record<string, string | number>;

/**
 * The parameters each kind's text is filled with: `notify()` asks for exactly these, and the web app's texts (the
 * `notifications` namespace, `kinds.<kind>`) use exactly these placeholders.
 */
export const NOTIFICATION_PARAMS = {
  /** The project's title. */
  moderation_approved: ['project'],
  moderation_returned: ['project'],
  /** The research's title. */
  collection_finished: ['research'],
  /** The report's name and its research's title. */
  report_built: ['report', 'research'],
  report_failed: ['report', 'research'],
  /** The research's title and the respondent (the session id's first 8 characters). */
  process_failed: ['research', 'respondent'],
  /** Sessions left. */
  balance_low: ['balance'],
  balance_exhausted: [],
  /** Staff: someone asked for access (their name and company). */
  access_requested: ['name', 'company'],
} as const satisfies Record<NotificationKind, readonly string[]>;
/** The parameters of a notification of kind `K`. */
export type NotificationParamsOf<K extends NotificationKind> = Record<
  (typeof NOTIFICATION_PARAMS)[K][number],
  string | number
>;

/** Notifications per page: `limit` of the list. */
export const NOTIFICATION_PAGE = { default: 20, max: 50 } as const;
/** Notifications one request may mark read by id. */
export const NOTIFICATION_READ_MAX_IDS = 200;

/** GET /api/cabinet/notifications/ */
export const notificationsQuery = z.strictObject({
  /** `next_cursor` of the page before; none for the newest. */
  cursor: keysetCursor.optional(),
  limit: z.coerce
    .number(msg('validation.number'))
    .int(msg('validation.wholeNumber'))
    .min(1, msg('validation.between', { first: 1, second: NOTIFICATION_PAGE.max }))
    .max(NOTIFICATION_PAGE.max, msg('validation.between', { first: 1, second: NOTIFICATION_PAGE.max }))
    .default(NOTIFICATION_PAGE.default),
});
export type NotificationsQuery = z.input<typeof notificationsQuery>;

export const notificationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The cabinet page it leads to (`/cabinet/campaign/<id>/report/<report id>`), or none. */
  link: z.string().nullable(),
  created_at: z.string(),
  read: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationSchema>;

/** GET /api/cabinet/notifications/ — a page of the user's notifications, newest first. */
export const notificationsOutput = z.object({
  items: z.array(notificationSchema),
  /** The user's unread notifications, all pages. */
  unread: z.number().int(),
  /** The `cursor` of the next page; null on the last. */
  next_cursor: z.string().nullable(),
});
export type NotificationsPage = z.infer<typeof notificationsOutput>;

/** GET /api/cabinet/notifications/unread/ — just the count, for the bell to poll. */
export const unreadNotificationsOutput = z.object({ unread: z.number().int() });
export type UnreadNotifications = z.infer<typeof unreadNotificationsOutput>;

/** POST /api/cabinet/notifications/read/ — these of the user's notifications (others' ids are ignored), or all. */
export const markNotificationsReadInput = z.union([
  z.strictObject({
    ids: z
      .array(z.uuid(msg('validation.invalid')), msg('validation.invalid'))
      .min(1, msg('validation.required'))
      .max(NOTIFICATION_READ_MAX_IDS, msg('validation.maxItems', { max: NOTIFICATION_READ_MAX_IDS })),
  }),
  z.strictObject({ all: z.literal(true, msg('validation.invalid')) }),
]);
export type MarkNotificationsReadInput = z.input<typeof markNotificationsReadInput>;
