import { CONSENT_POLICY_VERSION } from '@emolens/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, TEST_BACKEND, type TestApp } from './test/harness.ts';
import { bodyWith, fillPath, leafName, openApiOperations, type Step, sample, stringLeaves } from './test/openapi.ts';
import { BODY_CASES, fuzzAppPerFile, URL_CASES } from './test/openapi-fuzz.ts';
import { apiFixtures, type Resource, resourceOf, sharedRead } from './test/openapi-fuzz-api.ts';
import { respondentApiFixtures, respondentBody, respondentParamOf } from './test/openapi-fuzz-respondent.ts';

/**
 * Every operation of the served OpenAPI document, every string of its body (at any depth), every
 * query and path parameter: a NUL, a lone surrogate and a 100 KB string each, sent by a logged-in
 * user with real ids of existing objects elsewhere, so that the bad string is the only fault.
 * None may answer 5xx.
 */

// One app for both tests (test/openapi-fuzz.ts); its fixture sets: test/openapi-fuzz-api.ts and
// test/openapi-fuzz-respondent.ts.
const fuzz = fuzzAppPerFile();
let t: TestApp;
let alice: Client;
let carol: Client;
let dave: Client;
beforeAll(() => {
  ({ t, alice, carol, dave } = fuzz());
});
const { fixtures, withTolokaProject, withTolokaPool, withProlificProject, withMturkProject, withTaskRun, known } =
  apiFixtures(fuzz);
const { respondentFixtures } = respondentApiFixtures(fuzz);

describe(`OpenAPI fuzz on ${TEST_BACKEND}`, () => {
  it('answers no 5xx to a NUL, a lone surrogate or 100 KB in any string of any operation', async () => {
    // The reads first, on their shared set, before any other operation's set is made (a new set removes the API and
    // recruiting tokens of the earlier ones); every other operation on a set of its own.
    const operations = (await openApiOperations(t.app))
      .filter((op) => op.path.startsWith('/api/'))
      .sort((a, b) => Number(sharedRead(b)) - Number(sharedRead(a)));
    let reads: Record<Resource, string> | undefined;
    const failures: string[] = [];
    const baselineFailures: string[] = [];
    const notAtEdge: string[] = [];
    let cases = 0;
    let bodyCases = 0;
    const exercised = new Set<string>();

    for (const op of operations) {
      const leaves = op.body ? stringLeaves(op.body) : [];
      if (!leaves.length && !op.queryParams.length && !op.pathParams.length) continue;
      const name = `${op.method} ${op.path}`;
      exercised.add(name);
      if (sharedRead(op)) reads ??= await fixtures();
      const fx = sharedRead(op) && reads ? reads : await fixtures();
      if (op.path.endsWith('/task-marks/')) await withTaskRun(fx);
      if (/\/toloka\/$/.test(op.path)) await withTolokaProject(fx);
      if (/\/toloka\/(acceptance|decisions\/confirm)\/$/.test(op.path)) await withTolokaPool(fx);
      // Moderation needs a test waiting for it.
      if (op.path.endsWith('/self-service/{id}/moderation/')) {
        await t.database.db
          .updateTable('self_service_tests')
          .set({ state: 'moderation' })
          .where('id', '=', fx.selfServiceTest)
          .execute();
      }
      if (/\/campaigns\/\{id\}\/mturk\//.test(op.path)) {
        await withMturkProject(fx, /\/mturk\/(acceptance|decisions\/confirm)\/$/.test(op.path));
      }
      if (/\/campaigns\/\{id\}\/prolific\//.test(op.path)) {
        await withProlificProject(fx, !/\/prolific\/$/.test(op.path));
      }
      const ids = Object.fromEntries(op.pathParams.map((p) => [p, fx[resourceOf(op, p)]]));
      const path = fillPath(op.path, ids);
      const client = /^\/api\/cabinet\/(categories|benchmarks)\//.test(op.path)
        ? carol
        : op.path.startsWith('/api/cabinet/licences/accounts/') ||
            op.path.endsWith('/moderation/') ||
            op.path.startsWith('/api/cabinet/access-requests/')
          ? dave
          : alice;
      const send = async (where: string, label: string, url: string, body: () => Promise<unknown>) => {
        cases++;
        const res = await client.request(op.method, url, { body: await body() });
        if (res.statusCode >= 500) failures.push(`${name} ${where} [${label}] -> ${res.statusCode} ${res.body}`);
        return res;
      };
      const validBody = async () => (op.body ? sample(op.body, await known(op, fx)) : undefined);

      for (const steps of leaves) {
        const leaf = steps.at(-1) as Step;
        for (const [label, spoil] of Object.entries(BODY_CASES)) {
          bodyCases++;
          const res = await send(`body.${leafName(steps)}`, label, path, async () => {
            const values = await known(op, fx);
            return bodyWith(op.body ?? {}, steps, spoil(String(sample(leaf.schema, values, leaf.name))), values);
          });
          // The edge rule, not a later check, refused the bad character, and named the field.
          const refused = res.statusCode === 400 && res.json().code === 'invalid_text';
          if (label !== '100 KB' && !(refused && leafName(steps) in res.json().fields)) {
            notAtEdge.push(`${name} body.${leafName(steps)} [${label}] -> ${res.statusCode} ${res.body}`);
          }
        }
      }
      for (const q of op.queryParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(String(sample(q.schema, { project_id: fx.project }, q.name)));
          await send(`query.${q.name}`, label, `${path}?${q.name}=${value}`, validBody);
        }
      }
      for (const p of op.pathParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(ids[p] ?? '');
          await send(`path.${p}`, label, fillPath(op.path, { ...ids, [p]: value }, true), validBody);
        }
      }
      // The same body without the bad string is accepted: the cases above reached the handler.
      if (op.body) {
        const res = await client.request(op.method, path, { body: await validBody() });
        if (res.statusCode >= 300) baselineFailures.push(`${name} -> ${res.statusCode} ${res.body}`);
      }
    }

    const summary = `${exercised.size} operations, ${cases} cases (${bodyCases} in bodies)`;
    expect(failures, `${failures.length} of ${cases} cases answered 5xx (${summary}):\n${failures.join('\n')}`).toEqual(
      [],
    );
    expect(notAtEdge, `not refused as invalid_text:\n${notAtEdge.join('\n')}`).toEqual([]);
    expect(baselineFailures, `valid bodies refused:\n${baselineFailures.join('\n')}`).toEqual([]);
    // It cannot pass by testing nothing: the document's operations and their strings were all sent.
    expect(exercised.size, summary).toBeGreaterThanOrEqual(35);
    expect(bodyCases, summary).toBeGreaterThanOrEqual(250);
    expect(cases, summary).toBeGreaterThanOrEqual(360);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// The respondent API (/r): anonymous, reached with a link's token or a session's secret.

describe(`OpenAPI fuzz of the respondent API on ${TEST_BACKEND}`, () => {
  it('answers no 5xx to a NUL, a lone surrogate or 100 KB in any string, path or query of any /r operation', async () => {
    const operations = (await openApiOperations(t.app)).filter((op) => op.path.startsWith('/r/'));
    const failures: string[] = [];
    const notAtEdge: string[] = [];
    const baselineFailures: string[] = [];
    const exercised = new Set<string>();
    let cases = 0;

    for (const op of operations) {
      const name = `${op.method} ${op.path}`;
      exercised.add(name);
      const { values, client, dotTestSecret } = await respondentFixtures();
      if (op.path.startsWith('/r/dot-tests/')) client.secret = dotTestSecret;
      const ids = Object.fromEntries(op.pathParams.map((p) => [p, values[respondentParamOf(op, p)]]));
      const path = fillPath(op.path, ids);
      const known = { policy_version: CONSENT_POLICY_VERSION };
      const send = async (where: string, label: string, url: string, body: unknown) => {
        cases++;
        const res = await client.request(op.method as 'GET' | 'POST' | 'PUT', url, { body });
        if (res.statusCode >= 500) failures.push(`${name} ${where} [${label}] -> ${res.statusCode} ${res.body}`);
        return res;
      };
      for (const steps of op.body ? stringLeaves(op.body) : []) {
        const leaf = steps.at(-1) as Step;
        for (const [label, spoil] of Object.entries(BODY_CASES)) {
          const body = bodyWith(op.body ?? {}, steps, spoil(String(sample(leaf.schema, known, leaf.name))), known);
          const res = await send(`body.${leafName(steps)}`, label, path, body);
          const refused = res.statusCode === 400 && res.json().code === 'invalid_text';
          if (label !== '100 KB' && !(refused && leafName(steps) in res.json().fields)) {
            notAtEdge.push(`${name} body.${leafName(steps)} [${label}] -> ${res.statusCode} ${res.body}`);
          }
        }
      }
      for (const q of op.queryParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(String(sample(q.schema, {}, q.name)));
          await send(`query.${q.name}`, label, `${path}?${q.name}=${value}`, respondentBody(op));
        }
      }
      for (const p of op.pathParams) {
        for (const [label, spoil] of Object.entries(URL_CASES)) {
          const value = spoil(ids[p] ?? '');
          await send(`path.${p}`, label, fillPath(op.path, { ...ids, [p]: value }, true), respondentBody(op));
        }
      }
      if (op.body) {
        const res = await client.request(op.method as 'GET' | 'POST' | 'PUT', path, {
          body: respondentBody(op),
        });
        // The fixture's research is a video, whose calibration is not checked before the content (decision 050): the
        // valid body reaches the service, which refuses the state, not the body.
        // Nor does it keep the video on the device (privacy mode, decision 064): the device calls are refused so too.
        const stateRefused =
          (name === 'POST /r/sessions/{id}/calibration-checks' &&
            res.statusCode === 409 &&
            res.json().key === 'respondent.calibrationCheckOff') ||
          (['POST /r/sessions/{id}/device-check', 'POST /r/sessions/{id}/analysis-site'].includes(name) &&
            res.statusCode === 409 &&
            res.json().key === 'respondent.deviceAnalysisOff');
        if (res.statusCode >= 300 && !stateRefused) baselineFailures.push(`${name} -> ${res.statusCode} ${res.body}`);
      }
    }

    const summary = `${exercised.size} operations, ${cases} cases`;
    expect(failures, `${failures.length} of ${cases} cases answered 5xx (${summary}):\n${failures.join('\n')}`).toEqual(
      [],
    );
    expect(notAtEdge, `not refused as invalid_text:\n${notAtEdge.join('\n')}`).toEqual([]);
    expect(baselineFailures, `valid bodies refused:\n${baselineFailures.join('\n')}`).toEqual([]);
    // The respondent's own operations were all there and sent.
    for (const op of [
      'GET /r/links/{token}',
      'POST /r/links/{token}/sessions',
      'POST /r/links/{token}/turned-away',
      'GET /r/sessions/{id}',
      'POST /r/sessions/{id}/segments',
      'PUT /r/sessions/{id}/segments/{segment}/chunks/{index}',
      'POST /r/sessions/{id}/events',
      'POST /r/sessions/{id}/complete',
      'POST /r/sessions/{id}/leave',
      'PUT /r/sessions/{id}/surveys/{slot}/answers',
      'POST /r/sessions/{id}/calibration-checks',
      'GET /r/sessions/{id}/calibration-checks/{attempt}',
      'POST /r/sessions/{id}/device-check',
      'POST /r/sessions/{id}/analysis-site',
      'POST /r/sessions/{id}/device-too-slow',
      'GET /r/media/{id}',
      'POST /r/dot-tests',
      'GET /r/dot-tests/{id}',
      'PUT /r/dot-tests/{id}/chunks/{index}',
      'POST /r/dot-tests/{id}/events',
      'POST /r/dot-tests/{id}/complete',
      'DELETE /r/dot-tests/{id}',
    ]) {
      expect(exercised, summary).toContain(op);
    }
    expect(cases, summary).toBeGreaterThanOrEqual(100);
  }, 600_000);
});
