import type {
  MarkNotificationsReadInput,
  NotificationItem,
  NotificationKind,
  NotificationParamsOf,
  NotificationsPage,
  notificationsQuery,
  UnreadNotifications,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { cursorOf, parseCursor } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

/**
 * In-cabinet notifications (issue 15, item 6). Other modules tell a user of an event with `notify`, which never
 * fails its caller: a notification lost is logged, the event itself stands. The cabinet lists the user's own,
 * counts the unread ones and marks them read.
 */
export type NotificationsDeps = Pick<Deps, 'notifications' | 'log'>;

export interface NotifyInput<K extends NotificationKind = NotificationKind> {
  userId: string;
  kind: K;
  /** What the kind's text is filled with, by placeholder name (`NOTIFICATION_PARAMS`). */
  params?: NotificationParamsOf<K>;
  /** The cabinet page it leads to (`/cabinet/…`). */
  link?: string | null;
  /** The event, so that it notifies the user once however often it is reported (`report:<id>:done:<generation>`). */
  dedupeKey?: string | null;
}

/** Tells the user of an event; true when a notification was added (false: notified already, or it failed, logged). */
export async function notify<K extends NotificationKind>(
  deps: NotificationsDeps,
  input: NotifyInput<K>,
): Promise<boolean> {
  try {
    return await deps.notifications.add({
      userId: input.userId,
      kind: input.kind,
      params: input.params ?? {},
      link: input.link ?? null,
      dedupeKey: input.dedupeKey ?? null,
    });
  } catch (err) {
    deps.log.error({ err, user: input.userId, kind: input.kind, dedupe: input.dedupeKey }, 'notification not added');
    return false;
  }
}

/**
 * A report's build ended (issue 13): its maker (else the project's owner) is told it is built or failed, once per
 * generation. Nothing when the report is no longer at that generation or did not end so.
 */
export async function notifyReportBuild(
  deps: NotificationsDeps,
  reportId: string,
  generation: number,
  outcome: 'done' | 'failed',
): Promise<void> {
  try {
    const event = await deps.notifications.reportEvent(reportId, generation);
    if (!event?.user_id) return;
    const ended = outcome === 'done' ? event.status === 'done' : event.status === 'canceled' && event.failed;
    if (!ended) return;
    await notify(deps, {
      userId: event.user_id,
      kind: outcome === 'done' ? 'report_built' : 'report_failed',
      params: { report: event.name, research: event.title },
      link: `/cabinet/campaign/${event.campaign_id}/report/${reportId}`,
      dedupeKey: `report:${reportId}:${outcome}:${generation}`,
    });
  } catch (err) {
    deps.log.error({ err, report: reportId, generation }, 'report notification not added');
  }
}

/** A respondent's video process failed for good: the project's owner is told, once per process. */
export async function notifyProcessFailed(deps: NotificationsDeps, processId: string): Promise<void> {
  try {
    const event = await deps.notifications.processEvent(processId);
    if (!event) return;
    await notify(deps, {
      userId: event.owner_id,
      kind: 'process_failed',
      params: { research: event.title, respondent: event.session_id.slice(0, 8) },
      link: `/cabinet/campaign/${event.campaign_id}/statistic`,
      dedupeKey: `process:${processId}:failed`,
    });
  } catch (err) {
    deps.log.error({ err, process: processId }, 'process notification not added');
  }
}

type Row = Awaited<ReturnType<NotificationsRepository['list']>>[number];

function toItem(row: Row): NotificationItem {
  return {
    id: row.id,
    kind: row.kind,
    params: row.params,
    link: row.link,
    created_at: row.created_at.toISOString(),
    read: row.read_at !== null,
  };
}

/** GET /api/cabinet/notifications/ — a page of the user's own, newest first, and the unread count. */
export async function listNotifications(
  deps: NotificationsDeps,
  user: User,
  query: z.infer<typeof notificationsQuery>,
): Promise<NotificationsPage> {
  const before = query.cursor ? parseCursor(query.cursor) : undefined;
  // One more than asked tells whether there is a next page.
  const [rows, unread] = await Promise.all([
    deps.notifications.list(user.id, query.limit + 1, before),
    deps.notifications.unreadCount(user.id),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    unread,
    next_cursor: rows.length > query.limit && last ? cursorOf(last) : null,
  };
}

/** GET /api/cabinet/notifications/unread/ */
export async function unreadNotifications(deps: NotificationsDeps, user: User): Promise<UnreadNotifications> {
  return { unread: await deps.notifications.unreadCount(user.id) };
}

/** POST /api/cabinet/notifications/read/ — the user's own of these ids (others are ignored), or all; the count after. */
export async function markNotificationsRead(
  deps: NotificationsDeps,
  user: User,
  input: MarkNotificationsReadInput,
): Promise<UnreadNotifications> {
  await deps.notifications.markRead(user.id, 'all' in input ? 'all' : input.ids);
  return unreadNotifications(deps, user);
}
