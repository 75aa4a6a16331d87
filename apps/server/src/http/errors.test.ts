import { Writable } from 'node:stream';
import { ERROR_MESSAGES } from '@emolens/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loggedIn, TEST_BACKEND, type TestApp } from '../test/harness.ts';
import { registerErrorHandling } from './errors.ts';

/** Driver, database and file-system words that must never reach an answer. */
const INTERNALS = /relation|projects_moved|syntax|uuid|0x00|encoding|\/srv\/|ENOENT|stack|node_modules|\.[jt]s:\d+/i;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe(`internal failures on ${TEST_BACKEND}`, () => {
  it('answers a database failure with the generic 500 and keeps the driver message for the log', async () => {
    const { alice } = await loggedIn(t.app, 'alice');
    await alice.draftProject();
    await sql`alter table projects rename to projects_moved`.execute(t.database.db);
    try {
      const res = await alice.request('GET', '/api/cabinet/projects/');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'internal', message: ERROR_MESSAGES.internal, key: 'errors.internal' });
      expect(res.body).not.toMatch(INTERNALS);
      const logged = t.logs.filter((line) => line.includes('request failed')).join('\n');
      expect(logged).toMatch(/relation .{0,4}projects.{0,4} does not exist/);
    } finally {
      await sql`alter table projects_moved rename to projects`.execute(t.database.db);
    }
  });
});

describe(`the error answers on ${TEST_BACKEND}`, () => {
  let app: FastifyInstance;
  const logs: string[] = [];

  /** The app's error handler in front of routes that fail the ways handlers can, on the test database. */
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    });
    app = Fastify({ loggerInstance: pino({ level: 'info' }, sink) as FastifyBaseLogger });
    registerErrorHandling(app);
    const db = t.database.db;
    app.get('/nul', async () => sql`select ${'a\u0000b'}::text`.execute(db));
    app.get('/not-a-uuid', async () => sql`select ${'abc'}::uuid`.execute(db));
    app.get('/out-of-range', async () => sql`select ${'99999999999'}::int4`.execute(db));
    app.get('/syntax', async () => sql`selec 1`.execute(db));
    // A scenario naming a questionnaire that is gone (deleted between a service's check and the insert).
    app.get(
      '/gone-reference',
      async () =>
        (await sql`update scenarios set screener_survey_id = ${'00000000-0000-4000-8000-000000000000'}`.execute(db))
          .rows,
    );
    app.get('/path', async () => {
      throw new Error("ENOENT: no such file or directory, open '/srv/emolens/media/secret.mp4'");
    });
    app.get('/plugin-4xx', async () => {
      throw Object.assign(new Error("Bad header in /srv/emolens/uploads/x: can't parse"), { statusCode: 400 });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const answer = async (url: string) => {
    logs.length = 0;
    const res = await app.inject({ method: 'GET', url });
    expect(res.body).not.toMatch(INTERNALS);
    return { status: res.statusCode, body: res.json(), log: logs.join('\n') };
  };

  it('maps database errors the client caused to 400, logging the details', async () => {
    const nul = await answer('/nul');
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({
      code: 'invalid_text',
      message: ERROR_MESSAGES.invalid_text,
      key: 'errors.invalid_text',
    });
    expect(nul.log).toMatch(/"level":40.*database refused the request data/);
    for (const url of ['/not-a-uuid', '/out-of-range']) {
      const res = await answer(url);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({
        code: 'bad_request',
        message: ERROR_MESSAGES.bad_request,
        key: 'errors.bad_request',
      });
      expect(res.log, url).toMatch(/uuid|out of range/);
    }
  });

  it('answers a reference to a row deleted meanwhile with 409', async () => {
    const { carol: alice } = await loggedIn(t.app, 'carol');
    const project = await alice.draftProject();
    await alice.readyToLaunch(project);
    const res = await answer('/gone-reference');
    expect(res.status, res.log).toBe(409);
    expect(res.body).toEqual({ code: 'conflict', message: ERROR_MESSAGES.conflict, key: 'errors.conflict' });
    expect(res.log).toMatch(/database refused the request data/);
  });

  it('answers any other failure with the generic 500 or 400, never its own message', async () => {
    for (const url of ['/syntax', '/path']) {
      const res = await answer(url);
      expect(res.status, url).toBe(500);
      expect(res.body, url).toEqual({ code: 'internal', message: ERROR_MESSAGES.internal, key: 'errors.internal' });
      expect(res.log, url).toMatch(/"level":50.*(syntax|ENOENT)/);
    }
    const plugin = await answer('/plugin-4xx');
    expect(plugin.status).toBe(400);
    expect(plugin.body).toEqual({
      code: 'bad_request',
      message: ERROR_MESSAGES.bad_request,
      key: 'errors.bad_request',
    });
  });
});
