import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Logger } from 'pino';
import type { CounterState, RateLimitCountersRepository } from './rate-limit-counters.repository.ts';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Counts kept by the process while the database does not answer; emptied whole when full (as an LRU would). */
const FALLBACK_KEYS = 5000;
/** A database outage is logged at most once per this while it lasts. */
const WARN_EVERY_MS = 60_000;

/** The in-memory fixed window the process counts in while the database is away. */
class MemoryCounters {
  private readonly counts = new Map<string, { hits: number; until: number }>();

  hit(key: string, windowMs: number, now = Date.now()): CounterState {
    let entry = this.counts.get(key);
    if (!entry || entry.until <= now) {
      if (this.counts.size >= FALLBACK_KEYS) this.counts.clear();
      entry = { hits: 0, until: now + windowMs };
      this.counts.set(key, entry);
    }
    entry.hits++;
    return { hits: entry.hits, ttlMs: entry.until - now };
  }

  read(key: string, now = Date.now()): CounterState {
    const entry = this.counts.get(key);
    return entry && entry.until > now ? { hits: entry.hits, ttlMs: entry.until - now } : { hits: 0, ttlMs: 0 };
  }
}

/**
 * A store for @fastify/rate-limit that counts in the database (decision 069), so every API process counts each
 * client's requests in one place and N processes allow each limit once. Each limit is its own store (the plugin
 * makes one per `createRateLimit` and per route with `config.rateLimit`, as its memory store does): a route's
 * counters are named by its method and URL, and the limits made with `createRateLimit` name theirs in the key
 * their key generator makes (rate-limits.ts).
 *
 * While the database does not answer, the process counts in its own memory instead (a limit per process, as
 * before decision 069) rather than letting every request through or refusing them all; the outage is logged.
 */
export function databaseRateLimitStore(counters: RateLimitCountersRepository, log: Logger): FastifyRateLimitStoreCtor {
  const memory = new MemoryCounters();
  let warnedAt = 0;
  const fellBack = (err: unknown) => {
    const now = Date.now();
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    log.warn({ err }, 'rate limits counted in this process: the database does not answer');
  };

  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly name = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const named = `${this.name}${key}`;
      counters.hit(named, timeWindow).then(
        (state) => callback(null, { current: state.hits, ttl: state.ttlMs }),
        (err: unknown) => {
          fellBack(err);
          const state = memory.hit(named, timeWindow);
          callback(null, { current: state.hits, ttl: state.ttlMs });
        },
      );
    }

    read(key: string, callback: Callback): void {
      const named = `${this.name}${key}`;
      counters.read(named).then(
        (state) => callback(null, { current: state.hits, ttl: state.ttlMs }),
        () => {
          const state = memory.read(named);
          callback(null, { current: state.hits, ttl: state.ttlMs });
        },
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : route?.method;
      return new DatabaseStore(undefined, route?.url ? `route:${method} ${route.url}:` : '');
    }
  }
  return DatabaseStore;
}
