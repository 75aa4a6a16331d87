import { ERROR_MESSAGES, MESSAGES } from '@emolens/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestApp, loggedIn, TEST_BACKEND, type TestApp } from '../test/harness.ts';
import { invalidTextPaths } from './invalid-text.ts';

const INVALID_TEXT_FIELD_MESSAGE = MESSAGES['validation.invalidText'];

const NUL = '\u0000';

describe('invalidTextPaths', () => {
  it('names NULs and lone surrogates in values and keys at any depth, and passes paired surrogates', () => {
    const paths = invalidTextPaths({
      ok: 'plain text, emoji 😀 and 日本語',
      nested: { list: ['fine', `a${NUL}b`], deeper: [{ x: 'lone \ud800 high' }] },
      [`bad${NUL}key`]: 'value',
      low: '\udc00 lone low',
      reversed: '\udc00\ud800',
      number: 5,
      none: null,
    });
    expect(paths.sort()).toEqual(['bad\uFFFDkey', 'low', 'nested.deeper.0.x', 'nested.list.1', 'reversed']);
    expect(invalidTextPaths({ ok: ['😀', { 'ключ 🙂': 'значение' }] })).toEqual([]);
    expect(invalidTextPaths(`top${NUL}`)).toEqual(['']);
  });

  it('does not walk binary bodies (a recording chunk is bytes, not text)', () => {
    // Anything a walk would find on a buffer: a property holding a NUL. The buffer is not entered at all.
    const chunk = Object.assign(Buffer.alloc(1024), { note: 'a\u0000b' });
    expect(invalidTextPaths(chunk)).toEqual([]);
    expect(invalidTextPaths({ chunk: new Uint8Array(8), name: 'a\u0000b' })).toEqual(['name']);
  });

  it('walks a deeply nested value without overflowing the stack, and names at most 20 fields', () => {
    let deep: unknown = NUL;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(invalidTextPaths(deep)).toHaveLength(1);
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, NUL]));
    expect(invalidTextPaths(many)).toHaveLength(20);
  });
});

describe(`the edge rule for text on ${TEST_BACKEND}`, () => {
  let t: TestApp;
  let alice: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ({ alice } = await loggedIn(t.app, 'alice'));
  });

  const refused = (fields: Record<string, string>) => ({
    code: 'invalid_text',
    message: ERROR_MESSAGES.invalid_text,
    key: 'errors.invalid_text',
    fields,
    field_keys: Object.fromEntries(Object.keys(fields).map((path) => [path, { key: 'validation.invalidText' }])),
  });

  it('refuses invalid text in a login username before it is looked up', async () => {
    const res = await alice.login(`alice${NUL}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refused({ username: INVALID_TEXT_FIELD_MESSAGE }));
  });

  it('refuses it in body fields and keys at any depth, naming them, and stores nothing', async () => {
    const project = await alice.draftProject();
    const before = await alice.request('GET', `/api/cabinet/projects/${project}/`);
    const res = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: project,
        campaigns_data: [
          { title: 'Fine', content_type: 'video', categories: { brand: 'x\ud800' } },
          { title: `Bad${NUL}`, content_type: 'video', [`evil${NUL}`]: true },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      refused({
        'campaigns_data.1.title': INVALID_TEXT_FIELD_MESSAGE,
        'campaigns_data.1.evil\uFFFD': INVALID_TEXT_FIELD_MESSAGE,
        'campaigns_data.0.categories.brand': INVALID_TEXT_FIELD_MESSAGE,
      }),
    );
    // The bad characters are not echoed back.
    expect(res.body).not.toMatch(/\\u0000|\\ud800/i);
    const after = await alice.request('GET', `/api/cabinet/projects/${project}/`);
    expect(after.json().counts).toEqual(before.json().counts);
  });

  it('refuses it in a query parameter and in a path parameter', async () => {
    const search = await alice.request('GET', '/api/cabinet/projects/?search=a%00b');
    expect(search.statusCode).toBe(400);
    expect(search.json()).toEqual(refused({ search: INVALID_TEXT_FIELD_MESSAGE }));
    const path = await alice.request('PATCH', '/api/cabinet/scenarios/abc%00/', {
      body: { updated_at: new Date().toISOString() },
    });
    expect(path.statusCode).toBe(400);
    expect(path.json()).toEqual(refused({ id: INVALID_TEXT_FIELD_MESSAGE }));
  });

  it('keeps text with paired surrogates (emoji) as it was sent', async () => {
    const res = await alice.request('POST', '/api/cabinet/projects/', {
      body: {
        title: 'Launch 🚀 ролик',
        description: '𝒳 and 😀',
        platform: 'cint',
        respondent_language: 'en',
        audience_type: 'simple',
        flow_type: 'new',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ title: 'Launch 🚀 ролик', description: '𝒳 and 😀' });
  });

  it('answers a deeply nested body with a short 400', async () => {
    const depth = 100_000;
    const res = await alice.request('POST', '/api/cabinet/projects/', {
      rawBody: `${'['.repeat(depth)}"${'\\u0000'}"${']'.repeat(depth)}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_text');
    expect(res.body.length).toBeLessThan(1000);
  });
});
