import { accessorLinkOutput, scenarioOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { markLaunched } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { aliceAndBobWithProjectEachTest } from '../../test/projects.ts';

const t = appPerFile();
const my = aliceAndBobWithProjectEachTest(t, {
  title: 'P',
  platform: 'toloka',
  respondent_language: 'ru',
  researches: [
    { title: 'Video A', content_type: 'video' },
    { title: 'Video B', content_type: 'video' },
  ],
});

const scenarios = (client = my.alice) =>
  client.request('GET', `/api/cabinet/projects/${my.projectId}/scenarios/`).then((r) => r.json().items);
const addScenario = async (body: object = {}) => {
  const res = await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/scenarios/`, { body });
  expect(res.statusCode, res.body).toBe(201);
  return scenarioOutput.parse(res.json());
};

describe('scenarios', () => {
  it('adds scenarios in order with their researches, duplicates and deletes them', async () => {
    const first = await addScenario({
      description: 'Main cell',
      campaign_ids: [my.researchIds[1], my.researchIds[0]],
      is_random_order: true,
    });
    expect(first).toMatchObject({ order_number: 1, is_random_order: true, is_use_face_checker: true });
    expect(first.campaigns.map((c) => c.title)).toEqual(['Video B', 'Video A']);
    const copy = scenarioOutput.parse(
      (await my.alice.request('POST', `/api/cabinet/scenarios/${first.id}/duplicate/`)).json(),
    );
    expect(copy).toMatchObject({ order_number: 2, description: 'Main cell', is_random_order: true });
    expect(copy.campaigns.map((c) => c.id)).toEqual(first.campaigns.map((c) => c.id));
    const third = await addScenario({ description: 'Control' });
    expect(third.order_number).toBe(3);

    expect((await my.alice.request('DELETE', `/api/cabinet/scenarios/${first.id}/`)).statusCode).toBe(204);
    const left = await scenarios();
    expect(left.map((s: { id: string; order_number: number }) => [s.id, s.order_number])).toEqual([
      [copy.id, 1],
      [third.id, 2],
    ]);
  });

  it('reorders every scenario at once, and only with the complete list', async () => {
    const a = await addScenario({ description: 'A' });
    const b = await addScenario({ description: 'B' });
    const res = await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/scenarios/reorder/`, {
      body: { order: [b.id, a.id] },
    });
    expect(res.json().items.map((s: { description: string }) => s.description)).toEqual(['B', 'A']);
    const partial = await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/scenarios/reorder/`, {
      body: { order: [a.id] },
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().fields.order).toBe('List every scenario of the project exactly once');
    expect((await scenarios()).map((s: { description: string }) => s.description)).toEqual(['B', 'A']);
  });

  it('accepts only researches of the same project, and validates links and quota', async () => {
    const other = await my.bob.request('POST', '/api/cabinet/projects/', {
      body: { title: 'Q', platform: 'cint', respondent_language: 'en', audience_type: 'hard', flow_type: 'old' },
    });
    const bobResearch = (
      await my.bob.request('POST', '/api/cabinet/projects/add-new-campaign/', {
        body: { project_id: other.json().id, campaigns_data: [{ title: 'Bob video', content_type: 'video' }] },
      })
    ).json().campaigns[0].id;
    const res = await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/scenarios/`, {
      body: { campaign_ids: [bobResearch] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.campaign_ids).toBe('Choose researches of this project, each once');
    const bad = await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/scenarios/`, {
      body: { redirect_links: { complete: 'javascript:alert(1)' }, quota: -5 },
    });
    expect(bad.json().fields).toMatchObject({
      'redirect_links.complete': 'Enter a link starting with http:// or https://',
      quota: 'Must be 0 or more',
    });
    expect(await scenarios()).toEqual([]);
  });

  it('detects concurrent edits and freezes scenarios after launch', async () => {
    const s = await addScenario();
    const ok = await my.alice.request('PATCH', `/api/cabinet/scenarios/${s.id}/`, {
      body: { is_paid: true, updated_at: s.updated_at },
    });
    expect(ok.json().is_paid).toBe(true);
    const stale = await my.alice.request('PATCH', `/api/cabinet/scenarios/${s.id}/`, {
      body: { is_paid: false, updated_at: s.updated_at },
    });
    expect(stale.statusCode).toBe(409);
    await markLaunched(t.app, my.projectId);
    const frozen = await my.alice.request('PATCH', `/api/cabinet/scenarios/${s.id}/`, {
      body: { is_paid: false, updated_at: ok.json().updated_at },
    });
    expect(frozen.json().code).toBe('invalid_state');
    expect(s.can).toEqual({ edit: true });
    const [listed] = (await my.alice.request('GET', `/api/cabinet/projects/${my.projectId}/scenarios/`)).json().items;
    expect(listed.can).toEqual({ edit: false });
    expect(
      (await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/scenarios/`, { body: {} })).statusCode,
    ).toBe(409);
    expect((await my.alice.request('DELETE', `/api/cabinet/scenarios/${s.id}/`)).statusCode).toBe(409);
  });

  it('downloads the display order as CSV', async () => {
    const s = await addScenario({ campaign_ids: my.researchIds, is_random_order: true });
    const res = await my.alice.request('GET', `/api/cabinet/scenarios/${s.id}/display-order/`);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.trim().split('\n')).toEqual([
      'position,research_id,title,content_type',
      `1,${my.researchIds[0]},"Video A",video`,
      `2,${my.researchIds[1]},"Video B",video`,
      '# shown in random order to each respondent',
    ]);
  });

  it("keeps another user's scenarios out of reach", async () => {
    const s = await addScenario({ description: 'Secret' });
    const attempts = await Promise.all([
      my.bob.request('GET', `/api/cabinet/projects/${my.projectId}/scenarios/`),
      my.bob.request('PATCH', `/api/cabinet/scenarios/${s.id}/`, {
        body: { description: 'x', updated_at: s.updated_at },
      }),
      my.bob.request('DELETE', `/api/cabinet/scenarios/${s.id}/`),
      my.bob.request('POST', `/api/cabinet/scenarios/${s.id}/duplicate/`),
      my.bob.request('GET', `/api/cabinet/scenarios/${s.id}/display-order/`),
      my.bob.request('POST', `/api/cabinet/scenarios/${s.id}/project-accessor-links/`, { body: {} }),
    ]);
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await scenarios()).map((x: { description: string }) => x.description)).toEqual(['Secret']);
  });
});

describe('quota links', () => {
  it('creates a link with an unguessable respondent address and sets each option', async () => {
    const s = await addScenario();
    const res = await my.alice.request('POST', `/api/cabinet/scenarios/${s.id}/project-accessor-links/`, {
      body: { quota_size: 150 },
    });
    expect(res.statusCode).toBe(201);
    const link = accessorLinkOutput.parse(res.json());
    expect(link).toMatchObject({
      quota_size: 150,
      is_use_face_checker: true,
      is_request_payment_data: false,
      is_screener_first: false,
    });
    expect(link.link).toMatch(/^http:\/\/[^/]+\/project-research\/[\w-]{24}$/);

    const base = `/api/cabinet/project-accessor-links/${link.id}`;
    expect(
      (await my.alice.request('PATCH', `${base}/set-quota-size/`, { body: { quota_size: 300 } })).json().quota_size,
    ).toBe(300);
    expect(
      (
        await my.alice.request('PATCH', `${base}/set-face-checker-option/`, { body: { is_use_face_checker: false } })
      ).json().is_use_face_checker,
    ).toBe(false);
    expect(
      (
        await my.alice.request('PATCH', `${base}/set-payment-option/`, { body: { is_request_payment_data: true } })
      ).json().is_request_payment_data,
    ).toBe(true);
    expect(
      (
        await my.alice.request('PATCH', `${base}/set-screener-first-option/`, { body: { is_screener_first: true } })
      ).json().is_screener_first,
    ).toBe(true);
    const bad = await my.alice.request('PATCH', `${base}/set-quota-size/`, { body: { quota_size: 0 } });
    expect(bad.json().fields.quota_size).toBe('At least 1');

    const list = (await my.alice.request('GET', `/api/cabinet/projects/${my.projectId}/project-accessor-links/`)).json()
      .items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      quota_size: 300,
      is_use_face_checker: false,
      is_request_payment_data: true,
      is_screener_first: true,
    });
  });

  it('refuses other users and closed projects', async () => {
    const s = await addScenario();
    const link = (
      await my.alice.request('POST', `/api/cabinet/scenarios/${s.id}/project-accessor-links/`, { body: {} })
    ).json();
    expect((await my.bob.request('GET', `/api/cabinet/project-accessor-links/${link.id}/`)).statusCode).toBe(404);
    expect(
      (
        await my.bob.request('PATCH', `/api/cabinet/project-accessor-links/${link.id}/set-quota-size/`, {
          body: { quota_size: 1 },
        })
      ).statusCode,
    ).toBe(404);
    // Fieldwork may change quotas; a completed project may not.
    await markLaunched(t.app, my.projectId);
    expect(
      (
        await my.alice.request('PATCH', `/api/cabinet/project-accessor-links/${link.id}/set-quota-size/`, {
          body: { quota_size: 50 },
        })
      ).statusCode,
    ).toBe(200);
    await my.alice.request('POST', `/api/cabinet/projects/${my.projectId}/complete/`);
    const closed = await my.alice.request('PATCH', `/api/cabinet/project-accessor-links/${link.id}/set-quota-size/`, {
      body: { quota_size: 60 },
    });
    expect(closed.statusCode).toBe(409);
    expect(link.can).toEqual({ edit: true });
    expect((await my.alice.request('GET', `/api/cabinet/project-accessor-links/${link.id}/`)).json().can).toEqual({
      edit: false,
    });
    expect((await my.alice.request('GET', `/api/cabinet/project-accessor-links/${link.id}/`)).json().quota_size).toBe(
      50,
    );
  });
});
