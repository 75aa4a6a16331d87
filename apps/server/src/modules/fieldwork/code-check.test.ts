import { randomUUID } from 'node:crypto';
import { CHECK_TOKEN_LIMIT, type CompletionClaims } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { Client, TEST_BACKEND } from '../../test/harness.ts';
import { formatShortCode, newShortCode, signCompletionCode } from '../respondents/completion-code.ts';
import { fieldworkPerFile, type LaunchedProject } from './fieldwork.fixture.ts';
import { splitCodes } from './fieldwork.service.ts';

/**
 * The cabinet's check of completion codes (`/api/cabinet/check-token/`): a genuine code, signed or short, told with
 * its project, researches and session now; forged, altered, foreign-secret and malformed codes told apart; another
 * customer's code and a deleted session telling nothing; a pasted list split by lines and commas, up to the limit.
 */
// The current test's launched project (see fieldworkPerFile).
let { alice, bob, projectId, researchId, session } = {} as LaunchedProject;
const t = fieldworkPerFile((project) => ({ alice, bob, projectId, researchId, session } = project));

describe(`completion codes on ${TEST_BACKEND}`, () => {
  const claimsOf = (sid: string, par: string | null = 'p-9'): CompletionClaims => ({
    sid,
    pid: projectId,
    cids: [researchId],
    par,
    outcome: 'complete',
  });
  const check = (client: Client, codes: string) =>
    client.request('POST', '/api/cabinet/check-token/', { body: { codes } });
  /** The code with one character of its payload or signature changed. */
  const alter = (code: string, part: 1 | 2) => {
    const parts = code.split('.');
    const text = parts[part] ?? '';
    const i = Math.floor(text.length / 2);
    parts[part] = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
    return parts.join('.');
  };

  /** A completed, counted session of participant p-9. */
  const completedByP9 = () =>
    session({ status: 'completed', quotaState: 'counted', outcome: 'complete', participantId: 'p-9' });
  /** What a check tells of a genuine code of that session. */
  const genuineOfP9 = () => ({
    valid: true,
    reason: null,
    project: { id: projectId, title: 'Project' },
    researches: [{ id: researchId, title: 'Interview' }],
    participant_id: 'p-9',
    outcome: 'complete',
    session_status: 'completed',
    quota_state: 'counted',
  });

  it('reports a genuine code with its project, researches and the session now', async () => {
    const sid = await completedByP9();
    const code = await signCompletionCode(t.app.ctx.secret, claimsOf(sid));
    const res = await check(alice, `${code}\n`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      truncated: false,
      items: [{ code, ...genuineOfP9(), completed_at: expect.any(String) }],
    });
  });

  it('never takes a forged, altered or foreign-secret code, and tells malformed text apart', async () => {
    const sid = await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    const code = await signCompletionCode(t.app.ctx.secret, claimsOf(sid));
    const otherSecret = await signCompletionCode('another-installation-secret', claimsOf(sid));
    // A payload rewritten to another outcome, with the original signature.
    const [head, , sig] = code.split('.');
    const rewritten = Buffer.from(JSON.stringify({ ...claimsOf(sid), outcome: 'screen_out' })).toString('base64url');
    const swapped = `${head}.${rewritten}.${sig}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${rewritten}.`;
    const formula = '=SUM(1+2)*cmd|A1';
    const res = await check(
      alice,
      [code, alter(code, 1), alter(code, 2), otherSecret, swapped, unsigned, 'hello', formula].join('\n'),
    );
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { code: string; valid: boolean; reason: string | null }[];
    expect(items.map((i) => [i.valid, i.reason])).toEqual([
      [true, null],
      [false, 'forged'],
      [false, 'forged'],
      [false, 'forged'],
      [false, 'forged'],
      [false, 'malformed'],
      [false, 'malformed'],
      [false, 'malformed'],
    ]);
    // Text is only echoed back (as JSON); the web app's CSV export quotes it.
    expect(items[7]?.code).toBe(formula);
  });

  it("shows another customer's code and a deleted session as session_missing, with no details", async () => {
    const sid = await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    const code = await signCompletionCode(t.app.ctx.secret, claimsOf(sid));
    const gone = await signCompletionCode(t.app.ctx.secret, claimsOf(randomUUID()));
    const res = await check(bob, `${code}, ${gone}`);
    expect(res.statusCode).toBe(200);
    for (const item of res.json().items) {
      expect(item).toMatchObject({
        valid: false,
        reason: 'session_missing',
        project: null,
        researches: [],
        participant_id: null,
        session_status: null,
      });
    }
  });

  it('takes a short code in any case, with or without its hyphen, and only of an ended saved session', async () => {
    const sid = await completedByP9();
    const running = await session({ status: 'started' });
    const preview = await session({ status: 'completed', outcome: 'complete', preview: true });
    const give = async (id: string) =>
      formatShortCode((await t.app.ctx.deps.sessionEnds.assignCompletionCode(id, newShortCode())) ?? '');
    const code = await give(sid);
    // Given once: a second assignment keeps the first code.
    expect(await t.app.ctx.deps.sessionEnds.assignCompletionCode(sid, newShortCode())).toBe(code.replace('-', ''));
    const typed = code.replace('-', '').toLowerCase();
    const unknown = formatShortCode(newShortCode());
    const res = await check(alice, [code, typed, await give(running), await give(preview), unknown].join('\n'));
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    const genuine = genuineOfP9();
    expect(items[0]).toMatchObject({ code, ...genuine });
    expect(items[1]).toMatchObject({ code: typed, ...genuine });
    for (const item of items.slice(2)) expect(item).toMatchObject({ valid: false, reason: 'session_missing' });
    // Another customer learns nothing from a genuine short code.
    expect((await check(bob, code)).json().items[0]).toMatchObject({
      valid: false,
      reason: 'session_missing',
      project: null,
      participant_id: null,
    });
  });

  it('splits a pasted list by lines and commas, once each, at most the limit', async () => {
    expect(splitCodes(' a.b.c ,\r\nd.e.f\n\n a.b.c,')).toEqual(['a.b.c', 'd.e.f']);
    const many = Array.from({ length: CHECK_TOKEN_LIMIT + 3 }, (_, i) => `x${i}.y.z`).join('\n');
    const res = await check(alice, many);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(CHECK_TOKEN_LIMIT);
    expect(res.json().truncated).toBe(true);
    expect((await check(alice, '')).json()).toEqual({ items: [], truncated: false });
    expect(
      (await new Client(t.app).request('POST', '/api/cabinet/check-token/', { body: { codes: 'a' } })).statusCode,
    ).toBe(401);
  });
});
