import {
  type MarkNotificationsReadInput,
  NOTIFICATION_PAGE,
  type NotificationsPage,
  notificationsOutput,
  type UnreadNotifications,
  unreadNotificationsOutput,
} from '@emolens/contracts';
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';

const UNREAD_KEY = ['notifications', 'unread'] as const;
const LIST_KEY = ['notifications', 'list'] as const;
/** How often the bell asks for the unread count (and when the window regains focus). */
const POLL_MS = 30_000;

/** GET /api/cabinet/notifications/unread/ — the bell's count, polled; a failed poll is silent (the next one retries). */
export function useUnreadNotifications() {
  return useQuery({
    queryKey: UNREAD_KEY,
    queryFn: () => apiRequest('GET', '/cabinet/notifications/unread/', unreadNotificationsOutput),
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: true,
    meta: { silent: true },
  });
}

/** GET /api/cabinet/notifications/ — the list, newest first, a page at a time; fetched while `open`. */
export function useNotifications(open: boolean) {
  const client = useQueryClient();
  return useInfiniteQuery({
    queryKey: LIST_KEY,
    queryFn: async ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(NOTIFICATION_PAGE.default) });
      if (pageParam) query.set('cursor', pageParam);
      const page = await apiRequest('GET', `/cabinet/notifications/?${query}`, notificationsOutput);
      client.setQueryData<UnreadNotifications>(UNREAD_KEY, { unread: page.unread });
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last: NotificationsPage) => last.next_cursor,
    enabled: open,
    staleTime: 0,
    refetchInterval: open ? POLL_MS : false,
    meta: { silent: true },
  });
}

/** POST /api/cabinet/notifications/read/ — the ids given, or all; the list and the count follow at once. */
export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkNotificationsReadInput) =>
      apiRequest('POST', '/cabinet/notifications/read/', unreadNotificationsOutput, input),
    onSuccess: (result, input) => {
      client.setQueryData<UnreadNotifications>(UNREAD_KEY, result);
      const read = 'all' in input ? null : new Set(input.ids);
      client.setQueryData<InfiniteData<NotificationsPage, string | null>>(LIST_KEY, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                unread: result.unread,
                items: page.items.map((n) => (!read || read.has(n.id) ? { ...n, read: true } : n)),
              })),
            }
          : data,
      );
    },
  });
}
