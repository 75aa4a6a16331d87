import { CONTENT_TYPES, categoriesOutput } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededEntries, up } from '../../db/migrations/20261203100000-category-directory.ts';
import { Client, createTestApp, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';

/**
 * A new installation's categories directory (issue 28, item 14): without it a customer cannot give a self-service
 * test its subtype, since only categorizer admins and staff add to the directory. The app is not reset first: the
 * database is as the migrations left it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const count = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('category_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`the categories directory of a new installation on ${TEST_BACKEND}`, () => {
  it('holds industries, sectors, categories and subtypes of every content type, which a customer can choose', async () => {
    const { anna } = await loggedIn(t.app, 'anna');
    const res = await anna.request('GET', '/api/cabinet/categories/');
    expect(res.statusCode).toBe(200);
    const { entries } = categoriesOutput.parse(res.json());
    for (const kind of ['industry', 'sector', 'category'] as const) {
      expect(entries.filter((e) => e.kind === kind).length, kind).toBeGreaterThanOrEqual(10);
    }
    for (const type of CONTENT_TYPES) {
      expect(entries.filter((e) => e.kind === 'subtype' && e.content_type === type).length, type).toBeGreaterThan(2);
    }
    expect(entries.map((e) => e.name)).toEqual(expect.arrayContaining(['FMCG', 'Beverages', 'TV commercial']));
    // Brands and companies are each customer's own.
    expect(entries.filter((e) => ['brand', 'sub_brand', 'company'].includes(e.kind))).toEqual([]);

    // The self-service test's categories step can be filled: the subtype problem goes away.
    const made = await anna.request('POST', '/api/cabinet/self-service/', { body: { title: 'Spring ad' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().problems).toContain('selfservice.subtypeMissing');
    const saved = await anna.request('PATCH', `/api/cabinet/self-service/${made.json().id}/`, {
      body: {
        updated_at: made.json().updated_at,
        categories: { subtype: 'TV commercial', industry: 'FMCG', sector: 'Beverages', category: 'Juices' },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().categories).toMatchObject({ subtype: 'TV commercial', industry: 'FMCG' });
    expect(saved.json().problems).not.toContain('selfservice.subtypeMissing');
  });

  it('is written into an empty directory only', async () => {
    const seeded = seededEntries().length;
    expect(await count()).toBe(seeded);
    // A directory someone keeps is left alone.
    await up(t.database.db);
    expect(await count()).toBe(seeded);
    await t.database.db.deleteFrom('category_entries').execute();
    await t.database.db.insertInto('category_entries').values({ kind: 'brand', name: 'Acme' }).execute();
    await up(t.database.db);
    expect(await count()).toBe(1);
    await t.database.db.deleteFrom('category_entries').execute();
    await up(t.database.db);
    expect(await count()).toBe(seeded);
  });
});

describe(`the benchmark base's size, public, on ${TEST_BACKEND}`, () => {
  it('counts the creatives the bases really hold: none on a new installation', async () => {
    const visitor = new Client(t.app);
    const empty = await visitor.request('GET', '/api/public/benchmark-base/');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ creatives: 0 });

    const db = t.database.db;
    const { id } = await db
      .insertInto('norm_imports')
      .values({ name: 'Agency norms' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const metrics = JSON.stringify({ engagement: 0.4 });
    await db
      .insertInto('norm_entries')
      .values([
        { import_id: id, content_type: 'video', subtype: 'TV commercial', respondents: 150, metrics },
        { import_id: id, content_type: 'pictures', subtype: 'Key visual', respondents: 120, metrics },
      ])
      .execute();
    expect((await visitor.request('GET', '/api/public/benchmark-base/')).json()).toEqual({ creatives: 2 });
  });
});
