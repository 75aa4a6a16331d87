import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess } from '../access/access.ts';

/** A research as recruiting needs it: its project's platform and status, and its first quota link. */
export type Research = NonNullable<Awaited<ReturnType<Deps['recruiting']['research']>>>;

/** The research a Toloka pool or an MTurk HIT is made for, when the user may manage it. */
export async function loadResearch(
  deps: Pick<Deps, 'access' | 'recruiting'>,
  user: User,
  researchId: string,
): Promise<Research> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const research = await deps.recruiting.research(researchId);
  if (!research) throw new AppError('not_found', { message: 'campaign.notFound' });
  return research;
}
