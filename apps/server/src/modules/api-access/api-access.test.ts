import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertCompletedManOf30, videoResearch } from '../../test/report-rows.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';

/**
 * Personal API tokens and the report builder's API (issue 14, items 1 and 2): made, listed, rotated, revoked and
 * expired tokens; the API with a token or the session's auth_token, under the cabinet's access checks. The
 * examples of docs/api.md are run by api-doc.test.ts.
 */
const t = appPerFile({}, { queue: true });
let alice: Client;
let bob: Client;
beforeEach(async () => {
  await t.app.ctx.database.db.deleteFrom('api_tokens').execute();
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

const makeToken = async (client: Client, body: Record<string, unknown> = {}) =>
  client.request('POST', '/api/users/api-access/access-api-token/', { body: { scope: 'report_builder', ...body } });

const builder = (token: string | null, method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url: `/report_builder/api${url}`,
    headers: token === null ? {} : { authorization: `Token ${token}` },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });

describe('API tokens', () => {
  it('are shown once, listed without the secret, rotated, revoked and expire', async () => {
    const made = await makeToken(alice, { description: 'Dashboard', expires_at: '2099-12-31' });
    expect(made.statusCode, made.body).toBe(201);
    const { token, id } = made.json();
    expect(token).toMatch(/^emo_[\w-]{43}$/);
    expect(made.json()).toMatchObject({ scope: 'report_builder', description: 'Dashboard', expires_at: '2099-12-31' });
    const list = (await alice.request('GET', '/api/users/api-access/tokens/')).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id, prefix: token.slice(0, 10), last_used_at: null, expired: false });
    expect(JSON.stringify(list)).not.toContain(token);
    // Stored hashed: the table has no trace of the token.
    const rows = await t.app.ctx.database.db.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token.slice(10));

    expect((await builder(token, 'GET', '/campaigns/')).statusCode).toBe(200);
    const used = (await alice.request('GET', '/api/users/api-access/tokens/')).json();
    expect(used.items[0].last_used_at).not.toBeNull();

    // Rotated: a new secret, the same description; the old one stops at once.
    const rotated = await makeToken(alice, { replace: id });
    expect(rotated.statusCode).toBe(201);
    expect(rotated.json().description).toBe('Dashboard');
    expect((await builder(token, 'GET', '/campaigns/')).statusCode).toBe(401);
    expect((await builder(rotated.json().token, 'GET', '/campaigns/')).statusCode).toBe(200);
    // Someone else's token cannot be rotated or revoked: not found.
    expect((await makeToken(bob, { replace: rotated.json().id })).statusCode).toBe(404);
    expect((await bob.request('DELETE', `/api/users/api-access/tokens/${rotated.json().id}/`)).statusCode).toBe(404);
    expect((await alice.request('DELETE', `/api/users/api-access/tokens/${rotated.json().id}/`)).statusCode).toBe(204);
    const revoked = await builder(rotated.json().token, 'GET', '/campaigns/');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().key).toBe('token.invalid');
    expect((await alice.request('GET', '/api/users/api-access/tokens/')).json().items).toEqual([]);

    // Past its last day it stops and says it expired.
    const later = (await makeToken(alice)).json();
    await t.app.ctx.database.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', later.id)
      .execute();
    expect((await builder(later.token, 'GET', '/campaigns/')).statusCode).toBe(401);
    expect((await alice.request('GET', '/api/users/api-access/tokens/')).json().items[0].expired).toBe(true);
    // No token reached the logs.
    expect(t.logs.join('\n')).not.toContain(later.token.slice(4));
  });

  it('refuse a past expiry, a wrong scope, bad dates, and more than 20 at once', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const past = await makeToken(alice, { expires_at: today });
    expect(past.statusCode).toBe(400);
    expect(past.json().field_keys.expires_at.key).toBe('token.expiryPast');
    expect((await makeToken(alice, { expires_at: '2099-02-31x' })).json().field_keys.expires_at.key).toBe(
      'validation.date',
    );
    expect((await makeToken(alice, { scope: 'admin' })).statusCode).toBe(400);
    for (let i = 0; i < 20; i++) expect((await makeToken(alice)).statusCode).toBe(201);
    const over = await makeToken(alice);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ key: 'token.limit', params: { max: 20 } });
    expect((await alice.request('GET', '/api/users/api-access/tokens/')).json().can.create).toBe(false);
    // Without the cabinet's CSRF header a token cannot be made from another site.
    expect(
      (
        await alice.request('POST', '/api/users/api-access/access-api-token/', {
          body: { scope: 'report_builder' },
          csrf: false,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('the report builder API', () => {
  async function research(client: Client, owner: string) {
    const { researchId, linkId } = await videoResearch(t.app, client, owner, { width: 1000, height: 500, seconds: 3 });
    for (const engagement of [
      [0.2, 0.4, 0.6],
      [0.4, 0.4, 0.4],
    ]) {
      await insertCompletedManOf30(t.app, { linkId, researchId }, { engagement });
    }
    return researchId;
  }

  it('builds and reads reports with a token or the session’s auth_token, as the cabinet would', async () => {
    const researchId = await research(alice, 'alice');
    const { token } = (await makeToken(alice)).json();
    const created = await builder(token, 'POST', `/campaigns/${researchId}/reports/`, { name: 'By API' });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.ctx.queue.run(buildReportJob, { report_id: created.json().id, generation: 1 });
    const report = await builder(token, 'GET', `/reports/${created.json().id}/`);
    expect(report.json()).toMatchObject({ status: 'done', snapshot: { respondents: 2 } });
    expect(report.json().snapshot.items[0].curves.engagement.mean).toEqual([0.3, 0.4, 0.5]);
    // The cabinet sees the same report.
    expect((await alice.request('GET', `/api/cabinet/campaigns/${researchId}/reports/`)).json()[0].name).toBe('By API');

    // The SPA's way: the session's auth_token from the user data.
    const authToken = (await alice.request('GET', '/api/users/user-data/')).json().auth_token;
    expect((await builder(authToken, 'GET', `/campaigns/${researchId}/reports/`)).json()).toHaveLength(1);
    // After logout it is worthless.
    await alice.request('POST', '/api/auth/logout/');
    expect((await builder(authToken, 'GET', `/campaigns/${researchId}/reports/`)).statusCode).toBe(401);

    // Another user's token sees nothing of it: not found, exactly as in the cabinet.
    const bobs = (await makeToken(bob)).json().token;
    expect((await builder(bobs, 'GET', `/reports/${created.json().id}/`)).statusCode).toBe(404);
    expect((await builder(bobs, 'POST', `/campaigns/${researchId}/reports/`, { name: 'Mine' })).statusCode).toBe(404);
    // No token, a malformed one, a cookie instead: 401 before anything else.
    expect((await builder(null, 'GET', '/campaigns/')).statusCode).toBe(401);
    expect((await builder('emo_garbage', 'GET', '/campaigns/')).statusCode).toBe(401);
    expect((await builder('x'.repeat(2000), 'GET', '/campaigns/')).statusCode).toBe(401);
    const cookieOnly = await bob.request('GET', '/report_builder/api/campaigns/');
    expect(cookieOnly.statusCode).toBe(401);
  });
});
