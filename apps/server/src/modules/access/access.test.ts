import { createReportInput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { type Client, loggedIn, seedUser } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { TINY_WEBM } from '../../test/respondent.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { checkAccess, type Permission, requireAccess } from './access.ts';

const t = appPerFile();
let alice: Client;
let users: Record<'alice' | 'bob' | 'root', User>;
/** What a project holds (a demo analysis and a questionnaire belong to a user instead). */
type ProjectPermission = Exclude<Permission, 'demoAnalysis.view' | 'survey.manage'>;
/** One object of each kind, all in alice's project. */
let ids: Record<ProjectPermission, string>;

beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice', 'bob'));
  await seedUser(t.app, 'root', { role: 'super_user' });
  const find = async (name: string) => {
    const user = await t.app.ctx.deps.users.findByUsername(name);
    if (!user) throw new Error(name);
    return user;
  };
  users = { alice: await find('alice'), bob: await find('bob'), root: await find('root') };
  const project = await alice.draftProject();
  const scenario = await alice.readyToLaunch(project);
  const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${project}`)).json().items;
  const [link] = (await alice.request('GET', `/api/cabinet/projects/${project}/project-accessor-links/`)).json().items;
  const session = await insertRespondentSession(t.app, { linkId: link.id, status: 'started' });
  // The ready project's research is contentless, which takes no file (issue 28, item 12): a video research of the
  // same project holds the media.
  const spot = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: { project_id: project, campaigns_data: [{ title: 'Spot', content_type: 'video' }] },
  });
  const upload = await alice.upload(spot.json().campaigns[0].id, 'spot.webm', TINY_WEBM, 'video/webm');
  expect(upload.statusCode, upload.body).toBe(204);
  ids = {
    'project.manage': project,
    'scenario.manage': scenario,
    'campaign.manage': research.id,
    'quotaLink.manage': link.id,
    'media.manage': String(upload.headers['x-media-id']),
    'respondentSession.view': session,
    'respondentSession.manage': session,
    'videoProcess.manage': await insertVideoProcess(t.app, {
      sessionId: session,
      researchId: research.id,
      status: 'done',
    }),
    'report.manage': (
      await t.app.ctx.deps.reports.create(research.id, users.alice.id, createReportInput.parse({ name: 'Access' }))
    )?.id as string,
  };
});

const PERMISSIONS: ProjectPermission[] = [
  'project.manage',
  'campaign.manage',
  'scenario.manage',
  'quotaLink.manage',
  'media.manage',
  'respondentSession.view',
  'respondentSession.manage',
  'videoProcess.manage',
  'report.manage',
];
const check = (user: User, permission: Permission, list: string[]) =>
  checkAccess(t.app.ctx.deps.access, user, permission, list);

describe('the access check', () => {
  it('gives the owner and staff every object of the project, another customer none', async () => {
    for (const permission of PERMISSIONS) {
      const id = ids[permission];
      expect(await check(users.alice, permission, [id]), permission).toEqual(new Set([id]));
      expect(await check(users.root, permission, [id]), permission).toEqual(new Set([id]));
      expect(await check(users.bob, permission, [id]), permission).toEqual(new Set());
      await expect(requireAccess(t.app.ctx.deps.access, users.bob, permission, id)).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(requireAccess(t.app.ctx.deps.access, users.alice, permission, id)).resolves.toBeUndefined();
    }
  });

  it('treats ids of another kind, unknown ids and non-uuids as not found, without reaching SQL as uuids', async () => {
    expect(await check(users.alice, 'project.manage', [ids['scenario.manage'], crypto.randomUUID()])).toEqual(
      new Set(),
    );
    expect(await check(users.root, 'campaign.manage', ['not-a-uuid', "'; drop table projects; --", ''])).toEqual(
      new Set(),
    );
    await expect(requireAccess(t.app.ctx.deps.access, users.alice, 'project.manage', [])).rejects.toMatchObject({
      code: 'not_found',
    });
    // One id not allowed among several refuses them all.
    await expect(
      requireAccess(t.app.ctx.deps.access, users.alice, 'project.manage', [ids['project.manage'], crypto.randomUUID()]),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('hides the researches, files and reports of an archived project, not the project, its scenarios or links', async () => {
    expect((await alice.request('POST', `/api/cabinet/projects/${ids['project.manage']}/archive/`)).statusCode).toBe(
      200,
    );
    for (const permission of PERMISSIONS) {
      const hidden =
        permission === 'campaign.manage' ||
        permission === 'media.manage' ||
        permission === 'videoProcess.manage' ||
        permission === 'report.manage';
      expect((await check(users.alice, permission, [ids[permission]])).size, permission).toBe(hidden ? 0 : 1);
    }
  });

  it('gives a questionnaire to its owner and staff, whichever project uses it, and to no other customer', async () => {
    const created = await alice.request('POST', '/api/cabinet/surveys/', { body: { type: 'survey', title: 'After' } });
    const id: string = created.json().id;
    expect(await check(users.alice, 'survey.manage', [id])).toEqual(new Set([id]));
    expect(await check(users.root, 'survey.manage', [id])).toEqual(new Set([id]));
    expect(await check(users.bob, 'survey.manage', [id])).toEqual(new Set());
    // Another kind's id is no questionnaire.
    expect(await check(users.alice, 'survey.manage', [ids['project.manage']])).toEqual(new Set());
    await expect(requireAccess(t.app.ctx.deps.access, users.bob, 'survey.manage', id)).rejects.toMatchObject({
      code: 'not_found',
      ref: { key: 'survey.notFound' },
    });
  });

  it("keeps a demo analysis its owner's alone: staff and other customers do not find it", async () => {
    const id = crypto.randomUUID();
    await t.app.ctx.deps.interviewAnalysis.insert({
      id,
      owner_id: users.alice.id,
      kind: 'demo',
      filename: 'me.webm',
      size: 10,
      mime: 'video/webm',
      storage_key: `demo/${users.alice.id}/${id}.webm`,
      duration_seconds: 1,
    });
    expect(await check(users.alice, 'demoAnalysis.view', [id])).toEqual(new Set([id]));
    expect(await check(users.root, 'demoAnalysis.view', [id])).toEqual(new Set());
    expect(await check(users.bob, 'demoAnalysis.view', [id])).toEqual(new Set());
    await expect(requireAccess(t.app.ctx.deps.access, users.root, 'demoAnalysis.view', id)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
