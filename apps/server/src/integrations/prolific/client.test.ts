import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ProlificContractServer,
  startProlificContractServer,
} from '../../test/contract-servers/prolific/server.ts';
import { createProlificClient, isProlificAuthError, isProlificUnavailable, ProlificError } from './client.ts';
import type { ProlificStudyInput } from './schemas.ts';

/**
 * The Prolific client over real HTTP against the contract server: its header, the study's draft, read and
 * transitions, the submissions page after page, their transitions and return requests, and Prolific's errors.
 */
const TOKEN = 'prolific-client-test-token';
let server: ProlificContractServer;
beforeAll(async () => {
  server = await startProlificContractServer({ tokens: [TOKEN] });
});
afterAll(() => server.close());
beforeEach(() => {
  server.state.requests.length = 0;
  server.state.balance = 1_000_000;
});

const client = (token = TOKEN) => createProlificClient({ baseUrl: server.url, token, retryBaseDelayMs: 1 });
const DRAFT: ProlificStudyInput = {
  name: 'Watch a video',
  internal_name: 'Research (id)',
  description: 'A short study with your webcam on.',
  external_study_url: 'https://emolens.test/project-research/abc?PROLIFIC_PID={{%PROLIFIC_PID%}}',
  prolific_id_option: 'url_parameters',
  completion_codes: [
    { code: 'AAAA1111', code_type: 'COMPLETED', actor: 'participant', actions: [{ action: 'MANUALLY_REVIEW' }] },
    {
      code: 'BBBB2222',
      code_type: 'OTHER',
      actor: 'participant',
      actions: [{ action: 'REQUEST_RETURN', return_reason: 'Screened out' }],
    },
  ],
  total_available_places: 3,
  estimated_completion_time: 10,
  reward: 150,
  device_compatibility: ['desktop'],
  peripheral_requirements: ['camera'],
};

describe('the Prolific client', () => {
  it('sends the token as `Token <token>` and reads who it belongs to', async () => {
    expect(await client().me()).toMatchObject({ id: expect.any(String) });
    const refused = await client('wrong')
      .me()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProlificError);
    expect(isProlificAuthError(refused)).toBe(true);
    expect((refused as ProlificError).title).toBe('Unauthorized');
    expect(server.state.requests.map((r) => r.auth)).toEqual(['ok', 'invalid']);
  });

  it('makes a draft, moves it through its transitions and refuses the others', async () => {
    const made = await client().createStudy(DRAFT);
    expect(made).toMatchObject({ status: 'UNPUBLISHED', reward: 150, total_available_places: 3 });
    expect(server.state.requests.at(-1)?.body).toEqual(DRAFT);
    expect((await client().transitionStudy(made.id, 'PUBLISH')).status).toBe('ACTIVE');
    expect((await client().transitionStudy(made.id, 'PAUSE')).status).toBe('PAUSED');
    const wrong = await client()
      .transitionStudy(made.id, 'PAUSE')
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 400, title: 'Invalid transition' });
    expect((await client().transitionStudy(made.id, 'START')).status).toBe('ACTIVE');
    expect((await client().getStudy(made.id)).status).toBe('ACTIVE');
    // A draft missing what Prolific requires: 400 with the fields.
    const bad = await client()
      .createStudy({ ...DRAFT, completion_codes: [] })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, detail: { completion_codes: [expect.any(String)] } });
  });

  it('reads every page of submissions and approves, rejects and asks back, once', async () => {
    const study = await client().createStudy(DRAFT);
    await client().transitionStudy(study.id, 'PUBLISH');
    server.state.pageSize = 2;
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5'].map((p) => {
      const { submission } = server.state.startSubmission(study.id, p);
      server.state.complete(submission.id, 'AAAA1111');
      return submission.id;
    });
    const listed = await client().listSubmissions(study.id);
    expect(listed.map((s) => s.id)).toEqual(ids);
    expect(server.state.requests.filter((r) => r.path.endsWith('/submissions/'))).toHaveLength(3);

    const [a, b, c] = ids as [string, string, string];
    expect((await client().approve(a)).status).toBe('APPROVED');
    // The same transition again is ignored (Prolific's endpoint is idempotent).
    expect((await client().approve(a)).status).toBe('APPROVED');
    const message = 'The recording could not be used: no face was found in it. '.padEnd(100, '.');
    expect((await client().reject(b, message, 'NO_DATA')).status).toBe('REJECTED');
    expect(() => client().reject(c, 'Too short', 'OTHER')).toThrow(RangeError);
    expect((await client().requestReturn(c, ['The study ended early for you.'])).return_requested).toBeTruthy();
    const late = await client()
      .reject(a, message, 'NO_DATA')
      .catch((e: unknown) => e);
    expect(late).toMatchObject({ status: 400 });
    server.state.pageSize = 20;
  });

  it('retries reads on 429 and 5xx, never a creation on 5xx, and scrubs the token', async () => {
    server.state.failNext('/api/v1/users/me/', 503, { error: { status: 503, title: 'Down' } }, { times: 2 });
    expect(await client().me()).toBeTruthy();
    server.state.failNext('/api/v1/studies/', 502, 'Bad gateway');
    const made = await client()
      .createStudy(DRAFT)
      .catch((e: unknown) => e);
    expect(made).toMatchObject({ status: 502, code: 'HTTP_502' });
    expect(isProlificUnavailable(made)).toBe(true);
    expect(server.state.requests.filter((r) => r.path === '/api/v1/studies/')).toHaveLength(1);
    server.state.failNext('/api/v1/users/me/', 400, {
      error: { status: 400, error_code: 1, title: `Bad ${TOKEN}`, detail: `echo ${TOKEN}` },
    });
    const echoed = (await client()
      .me()
      .catch((e: unknown) => e)) as ProlificError;
    expect(JSON.stringify({ ...echoed.toJSON(), detail: echoed.detail })).not.toContain(TOKEN);
    const down = await createProlificClient({ baseUrl: 'http://127.0.0.1:9', token: TOKEN, retryBaseDelayMs: 1 })
      .me()
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ status: 0, code: 'NETWORK' });
  });
});
