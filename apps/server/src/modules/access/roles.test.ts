import { ROLES, type Role } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, seedUser } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';

/**
 * What each role may do (issue 15, item 5; decision 022): one request per role and action through the API, against
 * the table the access layer enforces. Every role acts on its own objects; only staff act on others'.
 */
const t = appPerFile();
let owner: Client;
let ownerProject: string;
let ownerPublicId: string;
const clients = {} as Record<Role, Client>;

beforeEach(async () => {
  ({ owner } = await loggedIn(t.app, 'owner'));
  ownerProject = await owner.draftProject();
  ownerPublicId = (await owner.request('GET', '/api/users/user-data/')).json().public_user_id;
  for (const role of ROLES) {
    await seedUser(t.app, `user_${role}`, { role });
    clients[role] = new Client(t.app);
    await clients[role].login(`user_${role}`);
  }
});

/** The status each role gets; the roles not named get `otherwise`. */
type Expect = { allowed: readonly Role[]; yes: number; no: number };
const ACTIONS: Record<string, { expect: Expect; run: (c: Client) => Promise<{ statusCode: number }> }> = {
  'add to the categories directory': {
    expect: { allowed: ['categorizer_admin', 'super_user'], yes: 201, no: 403 },
    run: (c) =>
      c.request('POST', '/api/cabinet/categories/', { body: { kind: 'brand', name: `Brand ${Math.random()}` } }),
  },
  "read another account's licence": {
    expect: { allowed: ['super_user'], yes: 200, no: 403 },
    run: (c) => c.request('GET', `/api/cabinet/licences/accounts/${ownerPublicId}/`),
  },
  'add a licence package': {
    expect: { allowed: ['super_user'], yes: 201, no: 403 },
    run: (c) =>
      c.request('POST', `/api/cabinet/licences/accounts/${ownerPublicId}/packages/`, {
        body: { package: 'additional' },
      }),
  },
  'open the moderation queue': {
    expect: { allowed: ['super_user'], yes: 200, no: 403 },
    run: (c) => c.request('GET', '/api/cabinet/self-service/?scope=moderation'),
  },
  'make a self-service test': {
    expect: { allowed: ['customer', 'armi_user', 'categorizer_admin', 'super_user'], yes: 201, no: 403 },
    run: (c) => c.request('POST', '/api/cabinet/self-service/', { body: { title: 'Ad' } }),
  },
  "open another customer's project": {
    expect: { allowed: ['super_user'], yes: 200, no: 404 },
    run: (c) => c.request('GET', `/api/cabinet/projects/${ownerProject}/`),
  },
  'make a project': {
    expect: { allowed: ROLES, yes: 201, no: 0 },
    run: (c) => c.draftProject().then(() => ({ statusCode: 201 })),
  },
};

/** Research types: a research of each type added to the role's own draft project. */
const RESEARCH: Record<string, { allowed: readonly Role[] }> = {
  contentless: { allowed: ['customer', 'super_user', 'categorizer_admin', 'ux_customer'] },
  video: { allowed: ['customer', 'super_user', 'categorizer_admin', 'armi_user'] },
  site: { allowed: ROLES },
};

describe('roles', () => {
  for (const [action, { expect: want, run }] of Object.entries(ACTIONS)) {
    it(`${action}: ${want.allowed.join(', ')}`, async () => {
      const got = Object.fromEntries(
        await Promise.all(ROLES.map(async (r) => [r, (await run(clients[r])).statusCode])),
      );
      const expected = Object.fromEntries(ROLES.map((r) => [r, want.allowed.includes(r) ? want.yes : want.no]));
      expect(got).toEqual(expected);
    });
  }

  for (const [type, { allowed }] of Object.entries(RESEARCH)) {
    it(`a ${type} research: ${allowed.join(', ')}`, async () => {
      const got: Record<string, string> = {};
      for (const role of ROLES) {
        const project = await clients[role].draftProject();
        const res = await clients[role].request('POST', '/api/cabinet/projects/add-new-campaign/', {
          body: { project_id: project, campaigns_data: [{ title: 'R', content_type: type }] },
        });
        got[role] =
          res.statusCode === 201 ? 'yes' : (res.json().field_keys?.['campaigns_data.0.content_type']?.key ?? res.body);
      }
      const refusal = type === 'contentless' ? 'campaign.contentlessForbidden' : 'campaign.contentTypeForRole';
      expect(got).toEqual(Object.fromEntries(ROLES.map((r) => [r, allowed.includes(r) ? 'yes' : refusal])));
    });
  }
});
