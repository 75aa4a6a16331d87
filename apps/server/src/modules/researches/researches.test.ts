import { researchOutput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, TEST_PASSWORD } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { createUser } from '../users/users.service.ts';

const t = appPerFile();
let alice: Client;
let bob: Client;
let projectId: string;
beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  projectId = await alice.draftProject();
});

function add(client: Client, data: object[], extra: object = {}, project = projectId) {
  return client.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: { project_id: project, campaigns_data: data, ...extra },
  });
}

describe('adding researches', () => {
  it('adds researches with the spec defaults to a draft project', async () => {
    const res = await add(alice, [
      { title: 'Video ad «Spring» 30s', content_type: 'video' },
      { title: 'Pack shots', content_type: 'pictures', settings: { isRandomOrder: true, badFramesPercent: 10 } },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [video, pictures] = res.json().campaigns.map((c: unknown) => researchOutput.parse(c));
    expect(video).toMatchObject({
      title: 'Video ad «Spring» 30s',
      content_type: 'video',
      status: 'new',
      is_new_user_flow: true,
      can_edit: true,
      project: { id: projectId, status: 'new' },
      settings: {
        badFramesPercent: 25,
        bannerTime: 10,
        taskTimeLimitSeconds: 60,
        multiFacesMode: false,
        isRandomOrder: false,
      },
    });
    expect(pictures?.settings).toMatchObject({ isRandomOrder: true, badFramesPercent: 10 });
    const project = (await alice.request('GET', `/api/cabinet/projects/${projectId}/`)).json();
    expect(project.counts.researches).toBe(2);
  });

  it('rejects a title with invalid characters and out-of-range settings', async () => {
    const res = await add(alice, [
      { title: '<script>alert(1)</script>', content_type: 'video', settings: { badFramesPercent: 140 } },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'campaigns_data.0.title': 'The title contains invalid characters',
      'campaigns_data.0.settings.badFramesPercent': 'must be between 0 and 100',
    });
  });

  it("refuses another user's project, and leaves it empty", async () => {
    const res = await add(bob, [{ title: 'Intruder', content_type: 'video' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: "A research cannot be created in another user's project",
      fields: { project_id: "A research cannot be created in another user's project" },
    });
    expect((await alice.request('GET', `/api/cabinet/projects/${projectId}/`)).json().counts.researches).toBe(0);
  });

  it('creates shelf researches only from the project wizard', async () => {
    const direct = await add(alice, [{ title: 'Shelf', content_type: 'shelf' }]);
    expect(direct.json().fields['campaigns_data.0.content_type']).toBe(
      'Shelf researches are created only through the project wizard',
    );
    expect((await add(alice, [{ title: 'Shelf', content_type: 'shelf' }], { from_wizard: true })).statusCode).toBe(201);
  });

  it('does not let an ARMI user create a contentless research', async () => {
    await createUser(t.app.ctx.deps.users, {
      username: 'armi',
      password: TEST_PASSWORD,
      role: 'armi_user',
      isArmiUser: true,
    });
    const armi = new Client(t.app);
    await armi.login('armi');
    const project = await armi.draftProject();
    const res = await add(armi, [{ title: 'No content', content_type: 'contentless' }], {}, project);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields['campaigns_data.0.content_type']).toBe(
      'Contentless researches are not available to ARMI users',
    );
    expect((await add(armi, [{ title: 'Video', content_type: 'video' }], {}, project)).statusCode).toBe(201);
  });

  it('freezes researches once the project is launched', async () => {
    await alice.readyToLaunch(projectId);
    const [created] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items;
    expect((await alice.request('POST', `/api/cabinet/projects/${projectId}/launch/`)).statusCode).toBe(200);
    expect((await add(alice, [{ title: 'After launch', content_type: 'video' }])).statusCode).toBe(409);
    const edit = await alice.request('PATCH', `/api/cabinet/campaigns/${created.id}/update-campaign-data/`, {
      body: { title: 'Changed', updated_at: created.updated_at },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('invalid_state');
    expect((await alice.request('DELETE', `/api/cabinet/campaigns/${created.id}/`)).statusCode).toBe(409);
    expect((await alice.request('GET', `/api/cabinet/campaigns/${created.id}/`)).json()).toMatchObject({
      title: 'Interview',
      can_edit: false,
    });
  });
});

describe('reading, editing and deleting', () => {
  it("lists by project, name, id and content type; hides other users' researches", async () => {
    const [video] = (
      await add(alice, [
        { title: 'Video one', content_type: 'video' },
        { title: 'Site test', content_type: 'site', site_url: 'https://example.org/proto' },
      ])
    ).json().campaigns;
    const list = (q: string, client = alice) =>
      client.request('GET', `/api/cabinet/campaigns/${q}`).then((r) => r.json());
    expect((await list(`?project_id=${projectId}`)).total).toBe(2);
    expect((await list('?search=video')).items.map((c: { title: string }) => c.title)).toEqual(['Video one']);
    expect((await list(`?search=${video.id}`)).items.map((c: { id: string }) => c.id)).toEqual([video.id]);
    expect((await list('?content_type=site')).items.map((c: { title: string }) => c.title)).toEqual(['Site test']);
    expect((await list('', bob)).total).toBe(0);
    expect((await bob.request('GET', `/api/cabinet/campaigns/${video.id}/get-campaign-data/`)).statusCode).toBe(404);
  });

  it('counts the reports of each research in its list and its details (issue 28 item 8)', async () => {
    const [video, site] = (
      await add(alice, [
        { title: 'Video one', content_type: 'video' },
        { title: 'Site test', content_type: 'site', site_url: 'https://example.org/proto' },
      ])
    ).json().campaigns;
    // Report rows written straight to the table: only their number matters here (the builds have their own tests).
    const report = (researchId: string, name: string, status: 'done' | 'canceled') =>
      t.app.ctx.database.db
        .insertInto('reports')
        .values({
          campaign_id: researchId,
          created_by: null,
          name,
          type: 'shift',
          step: 1,
          filters: '{}',
          segment: '{}',
          fixations: '{}',
          status,
        })
        .execute();
    await report(video.id, 'First', 'done');
    await report(video.id, 'Second', 'canceled');
    await report(site.id, 'Only', 'done');
    const items = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items;
    const counts = Object.fromEntries(
      items.map((c: { title: string; report_count: number }) => [c.title, c.report_count]),
    );
    expect(counts).toEqual({ 'Video one': 2, 'Site test': 1 });
    expect((await alice.request('GET', `/api/cabinet/campaigns/${video.id}/`)).json().report_count).toBe(2);
  });

  it('merges settings, detects concurrent edits', async () => {
    const [created] = (await add(alice, [{ title: 'Video', content_type: 'video' }])).json().campaigns;
    const res = await alice.request('PATCH', `/api/cabinet/campaigns/${created.id}/update-campaign-data/`, {
      body: {
        settings: {
          multiFacesMode: true,
          cint_options: { complete: 'https://panel.example/done', quota_full: '', screen_out: '' },
        },
        updated_at: created.updated_at,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({
      multiFacesMode: true,
      badFramesPercent: 25,
      cint_options: { complete: 'https://panel.example/done' },
    });
    // A later update that names one setting leaves the others as they were (not back at their defaults).
    const more = await alice.request('PATCH', `/api/cabinet/campaigns/${created.id}/update-campaign-data/`, {
      body: { settings: { badFramesPercent: 40 }, updated_at: res.json().updated_at },
    });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().settings).toMatchObject({
      multiFacesMode: true,
      badFramesPercent: 40,
      cint_options: { complete: 'https://panel.example/done' },
    });
    const stale = await alice.request('PATCH', `/api/cabinet/campaigns/${created.id}/update-campaign-data/`, {
      body: { title: 'Stale', updated_at: created.updated_at },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('conflict');
    const bobEdit = await bob.request('PATCH', `/api/cabinet/campaigns/${created.id}/update-campaign-data/`, {
      body: { title: 'Bob', updated_at: more.json().updated_at },
    });
    expect(bobEdit.statusCode).toBe(404);
    expect((await alice.request('GET', `/api/cabinet/campaigns/${created.id}/`)).json().title).toBe('Video');
  });

  it('deletes a research of a draft project; other users cannot', async () => {
    const [created] = (await add(alice, [{ title: 'Video', content_type: 'video' }])).json().campaigns;
    expect((await bob.request('DELETE', `/api/cabinet/campaigns/${created.id}/`)).statusCode).toBe(404);
    expect((await alice.request('DELETE', `/api/cabinet/campaigns/${created.id}/`)).statusCode).toBe(204);
    expect((await alice.request('GET', `/api/cabinet/campaigns/${created.id}/`)).statusCode).toBe(404);
  });
});
