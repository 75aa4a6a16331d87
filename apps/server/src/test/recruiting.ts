import type { Platform } from '@emolens/contracts';
import { signCompletionCode } from '../modules/respondents/completion-code.ts';
import { type Client, loggedIn, markLaunched, type TestApp } from './harness.ts';
import { insertProcessedRespondent } from './report-rows.ts';
import { insertRespondentSession } from './respondent-rows.ts';

/** A launched research recruiting on a platform, as the recruiting tests start from it. */
export interface RecruitingResearch {
  alice: Client;
  bob: Client;
  projectId: string;
  campaignId: string;
  /** The research's first quota link: its id and token. */
  linkId: string;
  linkToken: string;
}

/** Alice's launched project on `platform` (Bob logged in too), its research and first quota link. */
export async function launchedResearchOn(t: TestApp, platform: Platform): Promise<RecruitingResearch> {
  const { alice, bob } = await loggedIn(t.app, 'alice', 'bob');
  const projectId = await alice.draftProject();
  await alice.readyToLaunch(projectId);
  const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items;
  const [link] = (await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)).json()
    .items;
  await t.app.ctx.database.db.updateTable('projects').set({ platform }).where('id', '=', projectId).execute();
  await markLaunched(t.app, projectId);
  return { alice, bob, projectId, campaignId: research.id, linkId: link.id, linkToken: link.token };
}

/**
 * A completed session of the research and its signed completion code: processed and usable (true), processed and
 * excluded (false), or not processed yet (null).
 */
export async function completedRespondent(
  t: TestApp,
  research: Pick<RecruitingResearch, 'projectId' | 'campaignId' | 'linkId'>,
  usable: boolean | null,
  engagement = [0.4, 0.5, 0.6],
): Promise<{ sessionId: string; code: string }> {
  const { projectId, campaignId, linkId } = research;
  const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed', outcome: 'complete' });
  if (usable !== null) await insertProcessedRespondent(t.app, { sessionId, campaignId }, { engagement, usable });
  const code = await signCompletionCode(t.app.ctx.secret, {
    sid: sessionId,
    pid: projectId,
    cids: [campaignId],
    par: null,
    outcome: 'complete',
  });
  return { sessionId, code };
}
