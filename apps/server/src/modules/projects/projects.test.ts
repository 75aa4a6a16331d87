import { type CreateProjectInput, projectListOutput, projectOutput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, seedUser } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';

const t = appPerFile();
let alice: Client;
let bob: Client;
beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

const VALID: CreateProjectInput = {
  title: 'Spring video ad',
  description: 'Pre-test of the 30 s cut',
  platform: 'toloka',
  respondent_language: 'ru',
  audience_type: 'simple',
  flow_type: 'new',
  required_respondents: 150,
};

async function create(client: Client, overrides: Partial<CreateProjectInput> = {}) {
  const res = await client.request('POST', '/api/cabinet/projects/', { body: { ...VALID, ...overrides } });
  expect(res.statusCode, res.body).toBe(201);
  return projectOutput.parse(res.json());
}

const path = (id: string, action = '') => `/api/cabinet/projects/${id}/${action ? `${action}/` : ''}`;

describe('creating a project', () => {
  it('creates a draft owned by its author', async () => {
    const project = await create(alice);
    expect(project).toMatchObject({
      title: 'Spring video ad',
      status: 'new',
      flow_type: 'new',
      required_respondents: 150,
      owner: { username: 'alice' },
      created_by: { username: 'alice' },
      can: {
        edit: true,
        launch: true,
        complete: false,
        archive: true,
        delete: true,
        manage_scenarios: true,
        manage_quota_links: true,
      },
      launched_at: null,
    });
  });

  it("answers missing fields with the spec's messages", async () => {
    const res = await alice.request('POST', '/api/cabinet/projects/', { body: { title: '   ', flow_type: 'old' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Fill in the required fields',
      key: 'errors.validation_failed',
      fields: {
        title: "This is a required field. Don't leave it empty",
        platform: 'Select a platform, do not leave the field empty',
        respondent_language: "This is a required field. Don't leave it empty",
        audience_type: "This is a required field. Don't leave it empty",
      },
      field_keys: {
        title: { key: 'validation.required' },
        platform: { key: 'project.platformRequired' },
        respondent_language: { key: 'validation.required' },
        audience_type: { key: 'validation.required' },
      },
    });
  });

  it('names every field message by its catalogue key, with the parameters of the rule', async () => {
    const res = await alice.request('POST', '/api/cabinet/projects/', {
      body: { ...VALID, title: 'x'.repeat(256), required_respondents: 2_000_000, description: 7 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      fields: {
        title: 'At most 255 characters',
        required_respondents: 'At most 1,000,000',
        description: 'Invalid value',
      },
      field_keys: {
        title: { key: 'validation.maxChars', params: { max: 255 } },
        required_respondents: { key: 'validation.atMost', params: { max: 1_000_000 } },
        description: { key: 'validation.invalid' },
      },
    });
  });

  it('rejects an unknown platform, a negative respondent count and unknown fields', async () => {
    const platform = await alice.request('POST', '/api/cabinet/projects/', { body: { ...VALID, platform: 'myspace' } });
    expect(platform.json().fields.platform).toBe('Select a platform, do not leave the field empty');
    const count = await alice.request('POST', '/api/cabinet/projects/', {
      body: { ...VALID, required_respondents: -1 },
    });
    expect(count.json().fields.required_respondents).toBe('Must be 0 or more');
    const extra = await alice.request('POST', '/api/cabinet/projects/', { body: { ...VALID, status: 'active' } });
    expect(extra.json()).toMatchObject({ code: 'unknown_fields', fields: { status: 'Unknown field' } });
    const list = await alice.request('GET', '/api/cabinet/projects/');
    expect(list.json().total).toBe(0);
  });

  it('needs a session and the CSRF header', async () => {
    expect((await new Client(t.app).request('POST', '/api/cabinet/projects/', { body: VALID })).statusCode).toBe(401);
    expect((await alice.request('POST', '/api/cabinet/projects/', { body: VALID, csrf: false })).statusCode).toBe(403);
  });
});

describe('the projects list', () => {
  it('filters by tab, search and author, counts per tab and pages', async () => {
    const draft = await create(alice, { title: 'Shelf 100% juice' });
    const active = await create(alice, { title: 'Juice ad' });
    await alice.readyToLaunch(active.id);
    await alice.request('POST', path(active.id, 'launch'));
    for (let i = 0; i < 3; i++) await create(alice, { title: `Banner ${i}` });
    await create(bob, { title: 'Juice of Bob' });

    const all = projectListOutput.parse((await alice.request('GET', '/api/cabinet/projects/')).json());
    expect(all.total).toBe(5);
    expect(all.tabs).toEqual({ active: 1, drafts: 4, completed: 0, archive: 0 });

    const drafts = (await alice.request('GET', '/api/cabinet/projects/?tab=drafts')).json();
    expect(drafts.items.map((p: { status: string }) => p.status)).toEqual(['new', 'new', 'new', 'new']);

    const juice = (await alice.request('GET', '/api/cabinet/projects/?search=juice')).json();
    expect(juice.items.map((p: { title: string }) => p.title).sort()).toEqual(['Juice ad', 'Shelf 100% juice']);
    expect(juice.tabs).toEqual({ active: 1, drafts: 1, completed: 0, archive: 0 });

    // A % typed by the user is a character, not a wildcard.
    const percent = (await alice.request('GET', '/api/cabinet/projects/?search=100%25')).json();
    expect(percent.items.map((p: { id: string }) => p.id)).toEqual([draft.id]);

    const page2 = (await alice.request('GET', '/api/cabinet/projects/?page=2&page_size=2')).json();
    expect(page2).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(page2.items).toHaveLength(2);
  });

  it('shows only what the user created when asked', async () => {
    const project = await create(bob, { title: 'Handed over' });
    const [aliceRow] = await t.database.db
      .selectFrom('users')
      .select('public_user_id')
      .where('username', '=', 'alice')
      .execute();
    await bob.request('POST', path(project.id, 'change-owner'), { body: { public_user_id: aliceRow?.public_user_id } });
    await create(alice, { title: 'Mine' });
    const all = (await alice.request('GET', '/api/cabinet/projects/')).json();
    const mine = (await alice.request('GET', '/api/cabinet/projects/?created_by_me=true')).json();
    expect(all.total).toBe(2);
    expect(mine.items.map((p: { title: string }) => p.title)).toEqual(['Mine']);
  });

  it('rejects a bad query', async () => {
    expect((await alice.request('GET', '/api/cabinet/projects/?tab=deleted')).statusCode).toBe(400);
    expect((await alice.request('GET', '/api/cabinet/projects/?page=0')).statusCode).toBe(400);
    expect((await alice.request('GET', '/api/cabinet/projects/?page_size=1000')).statusCode).toBe(400);
  });
});

describe('permissions', () => {
  it("hides another customer's project and lets nothing change it", async () => {
    const project = await create(alice);
    const attempts = [
      bob.request('GET', path(project.id)),
      bob.request('PATCH', path(project.id), { body: { title: 'Hijacked', updated_at: project.updated_at } }),
      bob.request('POST', path(project.id, 'launch')),
      bob.request('POST', path(project.id, 'archive')),
      bob.request('POST', path(project.id, 'change-owner'), { body: { public_user_id: project.owner.public_user_id } }),
      bob.request('DELETE', path(project.id)),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await bob.request('GET', '/api/cabinet/projects/')).json().total).toBe(0);
    const after = projectOutput.parse((await alice.request('GET', path(project.id))).json());
    expect(after).toEqual(project);
  });

  it('lets a super user see and manage every project', async () => {
    const project = await create(alice);
    await seedUser(t.app, 'root', { role: 'super_user' });
    const root = new Client(t.app);
    await root.login('root');
    expect((await root.request('GET', '/api/cabinet/projects/')).json().total).toBe(1);
    await alice.readyToLaunch(project.id);
    expect((await root.request('POST', path(project.id, 'launch'))).json().status).toBe('active');
  });

  it('answers an id that is not a uuid with 404, not 500', async () => {
    expect((await alice.request('GET', path('not-a-uuid'))).statusCode).toBe(404);
  });
});

describe('editing', () => {
  it('saves changes and gives a new version', async () => {
    const project = await create(alice);
    const res = await alice.request('PATCH', path(project.id), {
      body: { title: 'Renamed', audience_type: 'hard', updated_at: project.updated_at },
    });
    expect(res.statusCode).toBe(200);
    const saved = projectOutput.parse(res.json());
    expect(saved).toMatchObject({ title: 'Renamed', audience_type: 'hard', platform: 'toloka', flow_type: 'new' });
    expect(saved.updated_at > project.updated_at).toBe(true);
  });

  it('detects a concurrent edit instead of losing it', async () => {
    const project = await create(alice);
    const first = await alice.request('PATCH', path(project.id), {
      body: { title: 'First', updated_at: project.updated_at },
    });
    expect(first.statusCode).toBe(200);
    const second = await alice.request('PATCH', path(project.id), {
      body: { title: 'Second', updated_at: project.updated_at },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('conflict');
    expect((await alice.request('GET', path(project.id))).json().title).toBe('First');
  });

  it('cannot change the flow type, and validates every field', async () => {
    const project = await create(alice);
    const flow = await alice.request('PATCH', path(project.id), {
      body: { flow_type: 'old', updated_at: project.updated_at },
    });
    expect(flow.json()).toMatchObject({ code: 'unknown_fields', fields: { flow_type: 'Unknown field' } });
    const empty = await alice.request('PATCH', path(project.id), {
      body: { title: '', updated_at: project.updated_at },
    });
    expect(empty.json().fields.title).toBe("This is a required field. Don't leave it empty");
    const noVersion = await alice.request('PATCH', path(project.id), { body: { title: 'x' } });
    expect(noVersion.statusCode).toBe(400);
  });
});

describe('lifecycle', () => {
  it('goes draft → active → completed → archived, each step once', async () => {
    const project = await create(alice);
    await alice.readyToLaunch(project.id);
    const launched = (await alice.request('POST', path(project.id, 'launch'))).json();
    expect(launched).toMatchObject({
      status: 'active',
      can: { launch: false, complete: true, delete: false, edit: true },
    });
    expect(launched.launched_at).not.toBeNull();
    expect((await alice.request('POST', path(project.id, 'launch'))).statusCode).toBe(409);

    const completed = (await alice.request('POST', path(project.id, 'complete'))).json();
    expect(completed).toMatchObject({ status: 'completed', can: { edit: false, archive: true } });
    const edit = await alice.request('PATCH', path(project.id), {
      body: { title: 'Late change', updated_at: completed.updated_at },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('invalid_state');
    expect((await alice.request('GET', path(project.id))).json().title).toBe(VALID.title);

    const archived = (await alice.request('POST', path(project.id, 'archive'))).json();
    expect(archived).toMatchObject({
      status: 'archived',
      can: {
        edit: false,
        launch: false,
        complete: false,
        archive: false,
        delete: false,
        manage_scenarios: false,
        manage_quota_links: false,
      },
    });
    expect((await alice.request('POST', path(project.id, 'complete'))).statusCode).toBe(409);
  });

  it('deletes only a draft, irreversibly', async () => {
    const active = await create(alice);
    await alice.readyToLaunch(active.id);
    await alice.request('POST', path(active.id, 'launch'));
    const refused = await alice.request('DELETE', path(active.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('invalid_state');
    expect((await alice.request('GET', path(active.id))).statusCode).toBe(200);

    const draft = await create(alice);
    expect((await alice.request('DELETE', path(draft.id))).statusCode).toBe(204);
    expect((await alice.request('GET', path(draft.id))).statusCode).toBe(404);
    expect((await alice.request('DELETE', path(draft.id))).statusCode).toBe(404);
  });
});

describe('changing the owner', () => {
  it("refuses an unknown user with the spec's message", async () => {
    const project = await create(alice);
    const res = await alice.request('POST', path(project.id, 'change-owner'), { body: { public_user_id: 'ZZZZZZZZ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: "User doesn't exist",
      key: 'user.doesNotExist',
      fields: { public_user_id: "User doesn't exist" },
      field_keys: { public_user_id: { key: 'user.doesNotExist' } },
    });
    expect((await alice.request('GET', path(project.id))).json().owner.username).toBe('alice');
  });

  it('moves the project to the new owner; the old one loses access', async () => {
    const project = await create(alice);
    const me = (await bob.request('GET', '/api/users/user-data/')).json();
    const res = await alice.request('POST', path(project.id, 'change-owner'), {
      body: { public_user_id: me.public_user_id.toLowerCase() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().owner.username).toBe('bob');
    expect((await alice.request('GET', path(project.id))).statusCode).toBe(404);
    expect((await bob.request('GET', path(project.id))).json()).toMatchObject({
      owner: { username: 'bob' },
      created_by: { username: 'alice' },
    });
  });
});
