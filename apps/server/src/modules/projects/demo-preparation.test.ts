import { projectListOutput, projectOutput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';

/**
 * The demo project while it is being made (issue 28 item 11): the cabinet sees how far it has come — respondents,
 * recordings, report — until its report is built. Its parts are written straight to the database here (the
 * seeding itself, end to end, is demo-data.test.ts).
 */
const t = appPerFile();
let alice: Client;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const db = () => t.app.ctx.database.db;

/** A launched project of Alice's with one research and one quota link, marked demo for three respondents. */
async function demoProject() {
  const id = await alice.draftProject();
  await alice.readyToLaunch(id);
  await db()
    .updateTable('projects')
    .set({ is_demo: true, required_respondents: 3, status: 'active' })
    .where('id', '=', id)
    .execute();
  const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${id}`)).json().items;
  const [link] = (await alice.request('GET', `/api/cabinet/projects/${id}/project-accessor-links/`)).json().items;
  return { id, researchId: research.id as string, linkId: link.id as string };
}

const detail = async (id: string) =>
  projectOutput.parse((await alice.request('GET', `/api/cabinet/projects/${id}/`)).json());
const listed = async (id: string) => {
  const list = projectListOutput.parse((await alice.request('GET', '/api/cabinet/projects/?tab=active')).json());
  return list.items.find((p) => p.id === id);
};
/** The demo research's report, as the seeding asks for it, in `state`. */
const demoReport = (researchId: string, state: { status: 'in_progress' | 'canceled'; failed?: boolean }) =>
  db()
    .insertInto('reports')
    .values({
      campaign_id: researchId,
      created_by: null,
      name: 'Demo',
      type: 'shift',
      step: 1,
      filters: '{}',
      segment: '{}',
      fixations: '{}',
      ...state,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
/** The project's preparation is `expected`, on its page and in the list alike. */
const expectPreparation = async (id: string, expected: unknown) => {
  expect((await detail(id)).preparation).toEqual(expected);
  expect((await listed(id))?.preparation).toEqual(expected);
};

describe('the demo project being prepared', () => {
  it('shows its steps until its report is built, in the list and on its page', async () => {
    const demo = await demoProject();
    await expectPreparation(demo.id, {
      respondents: { done: 0, total: 3 },
      recordings: { done: 0, total: 3 },
      report: { done: 0, total: 1 },
      done: 0,
      total: 7,
      stopped: false,
    });

    // Two respondents completed (one more is still on its way), one recording processed, one being processed.
    const first = await insertRespondentSession(t.app, {
      linkId: demo.linkId,
      status: 'completed',
      participantId: 'p1',
    });
    const second = await insertRespondentSession(t.app, {
      linkId: demo.linkId,
      status: 'completed',
      participantId: 'p2',
    });
    await insertRespondentSession(t.app, { linkId: demo.linkId, status: 'started', participantId: 'p3' });
    await insertVideoProcess(t.app, { sessionId: first, researchId: demo.researchId, status: 'done' });
    await insertVideoProcess(t.app, { sessionId: second, researchId: demo.researchId, status: 'in_process' });
    await expectPreparation(demo.id, {
      respondents: { done: 2, total: 3 },
      recordings: { done: 1, total: 3 },
      report: { done: 0, total: 1 },
      done: 3,
      total: 7,
      stopped: false,
    });

    // The report in progress is not built yet; once done, the project is made.
    const report = await demoReport(demo.researchId, { status: 'in_progress' });
    expect((await detail(demo.id)).preparation?.report).toEqual({ done: 0, total: 1 });
    await db().updateTable('reports').set({ status: 'done' }).where('id', '=', report.id).execute();
    expect((await detail(demo.id)).preparation).toBeNull();
    expect((await listed(demo.id))?.preparation).toBeNull();
  });

  it('says when the seeding gave up or the report failed; other projects have no preparation', async () => {
    const demo = await demoProject();
    await t.app.ctx.deps.demoData.stop(demo.id);
    expect((await detail(demo.id)).preparation).toMatchObject({ stopped: true, done: 0 });

    await db().updateTable('projects').set({ demo_stopped_at: null }).where('id', '=', demo.id).execute();
    await demoReport(demo.researchId, { status: 'canceled', failed: true });
    expect((await detail(demo.id)).preparation).toMatchObject({ stopped: true });

    const other = await alice.draftProject();
    expect((await detail(other)).preparation).toBeNull();
  });
});
