import { GUIDANCE_PROBLEMS, type ReportGuidance } from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { requireAccess } from '../access/access.ts';

export type GuidanceDeps = Pick<Deps, 'access' | 'guidance'>;

/** GET /api/cabinet/reports/{id}/guidance/ — who may see the report sees its sessions' live guidance. */
export async function reportGuidance(deps: GuidanceDeps, user: User, reportId: string) {
  await requireAccess(deps.access, user, 'report.manage', reportId);
  const rows = await deps.guidance.ofReport(reportId);
  return {
    sessions: rows.map((r) => ({
      session_id: r.session_id,
      guided_seconds: r.guided_seconds,
      // Every problem, 0 where a stored row lacks one.
      problems: Object.fromEntries(GUIDANCE_PROBLEMS.map((p) => [p, Number(r.problems[p] ?? 0)])),
    })),
  } as ReportGuidance;
}
