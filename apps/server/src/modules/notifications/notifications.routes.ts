import {
  markNotificationsReadInput,
  notificationsOutput,
  notificationsQuery,
  unreadNotificationsOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { listNotifications, markNotificationsRead, unreadNotifications } from './notifications.service.ts';

const tags = ['notifications'];

/** The user's own in-cabinet notifications (cabinet: session and CSRF). */
export function notificationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/notifications/',
      {
        schema: {
          tags,
          summary: "A page of the user's notifications, newest first (`cursor`: the page before's `next_cursor`)",
          querystring: notificationsQuery,
          response: { 200: notificationsOutput },
        },
      },
      async (request) => listNotifications(deps, currentUser(request).user, request.query),
    );
    app.get(
      '/cabinet/notifications/unread/',
      {
        schema: {
          tags,
          summary: "How many of the user's notifications are unread (for the bell to poll)",
          response: { 200: unreadNotificationsOutput },
        },
      },
      async (request) => unreadNotifications(deps, currentUser(request).user),
    );
    app.post(
      '/cabinet/notifications/read/',
      {
        schema: {
          tags,
          summary:
            "Marks these of the user's notifications read (others' ids are ignored), or all; the unread count after",
          body: markNotificationsReadInput,
          response: { 200: unreadNotificationsOutput },
        },
      },
      async (request) => markNotificationsRead(deps, currentUser(request).user, request.body),
    );
  };
}
