import type { RecruitingPlatform } from '@emolens/contracts';
import { ref } from '@emolens/contracts';
import type { Deps } from '../../../context.ts';
import { AppError } from '../../../http/errors.ts';

/** How long a platform may take to answer the check of a token being linked. */
export const CHECK_TIMEOUT_MS = 10_000;

/** The platform did not answer the check of a token: logged with its code and status only, answered 503. */
export function tokenUnreachable(
  deps: Pick<Deps, 'log'>,
  platform: RecruitingPlatform,
  service: string,
  error: unknown,
): AppError {
  // Only the code and status: the clients scrub their messages, but nothing of a request needs to be logged here.
  const detail =
    error instanceof Error && 'code' in error
      ? { code: (error as { code: unknown }).code, status: (error as { status?: unknown }).status }
      : { error: error instanceof Error ? error.name : typeof error };
  deps.log.warn({ service: platform, ...detail }, 'recruiting token check: the service did not answer');
  return new AppError('service_unavailable', { message: ref('oauth.serviceUnreachable', { service }) });
}
