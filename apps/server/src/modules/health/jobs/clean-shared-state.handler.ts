import type { AppContext } from '../../../context.ts';

/** Workers silent this long are forgotten (the newest of them stays, for /healthz to report its age). */
const FORGET_WORKERS_SECONDS = 24 * 3600;

export async function handle(_payload: Record<string, never>, ctx: AppContext): Promise<void> {
  const counters = await ctx.deps.rateLimitCounters.deleteExpired();
  const workers = await ctx.deps.workerHeartbeats.forgetSilent(FORGET_WORKERS_SECONDS);
  ctx.log.info({ counters, workers }, 'expired rate-limit counters and silent workers removed');
}
