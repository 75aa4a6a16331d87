import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { ASTRONAUT, type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';

const t = appPerFile();
let alice: Client;
let projectId: string;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  projectId = await alice.draftProject();
});

const launch = () => alice.request('POST', `/api/cabinet/projects/${projectId}/launch/`);
const status = async () => (await alice.request('GET', `/api/cabinet/projects/${projectId}/`)).json().status;

async function addResearch(content_type: string) {
  const res = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: {
      project_id: projectId,
      campaigns_data: [{ title: `A ${content_type} research`, content_type }],
      from_wizard: content_type === 'shelf',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().campaigns[0] as { id: string; updated_at: string };
}

async function addScenario(campaign_ids: string[]) {
  const res = await alice.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, { body: { campaign_ids } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function addLink(scenarioId: string) {
  const res = await alice.request('POST', `/api/cabinet/scenarios/${scenarioId}/project-accessor-links/`, { body: {} });
  expect(res.statusCode, res.body).toBe(201);
}

describe('launch rules', () => {
  it('refuses an empty project, naming what is missing, and leaves it a draft', async () => {
    const res = await launch();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'launch_incomplete',
      message: 'Not enough data to launch',
      key: 'errors.launch_incomplete',
      fields: { scenarios: 'Add at least one scenario', quota_links: 'Create a quota link' },
      field_keys: { scenarios: { key: 'launch.scenarioMissing' }, quota_links: { key: 'launch.quotaLinkMissing' } },
    });
    expect(await status()).toBe('new');
  });

  it('names an empty scenario and each research without its content', async () => {
    const video = await addResearch('video');
    const pictures = await addResearch('pictures');
    const shelf = await addResearch('shelf');
    const site = await addResearch('site');
    const full = await addScenario([video.id, pictures.id, site.id]);
    const empty = await addScenario([]);
    await addLink(full.id);
    const res = await launch();
    expect(res.statusCode).toBe(409);
    expect(res.json().fields).toEqual({
      [`scenarios.${empty.id}`]: 'Scenario 2 has no research',
      [`campaigns.${video.id}`]: 'A video research: Upload a video and wait until it is ready',
      [`campaigns.${pictures.id}`]: 'A pictures research: Add at least one picture to the gallery',
      [`campaigns.${shelf.id}`]: 'A shelf research: Add at least one shelf with an image',
      [`campaigns.${site.id}`]: 'A site research: Add at least one task with a screenshot',
    });
    expect(res.json().field_keys[`campaigns.${video.id}`]).toEqual({
      key: 'launch.videoMissing',
      params: { title: 'A video research' },
    });
    expect(res.json().field_keys[`scenarios.${empty.id}`]).toEqual({
      key: 'launch.scenarioEmpty',
      params: { number: 2 },
    });
    expect(await status()).toBe('new');
  });

  it('launches once every research has its content', async () => {
    const pictures = await addResearch('pictures');
    const contentless = await addResearch('contentless');
    const scenario = await addScenario([pictures.id, contentless.id]);
    await addLink(scenario.id);
    expect((await launch()).json().fields).toEqual({
      [`campaigns.${pictures.id}`]: 'A pictures research: Add at least one picture to the gallery',
    });
    const uploaded = await alice.upload(pictures.id, 'face.png', readFileSync(ASTRONAUT), 'image/png');
    expect(uploaded.statusCode).toBe(204);
    const res = await launch();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', can: { manage_scenarios: false, manage_quota_links: true } });
  });
});
