import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_BACKEND, type TestDatabase } from '../test/harness.ts';
import { down, up } from './migrations/20261205090000-report-area-shapes.ts';

/**
 * The migration that made drawn areas shapes (decision 044), on stored areas of the old form: run against a table
 * of the same name in a schema of its own, so the real reports are not touched.
 */
describe(`areas become shapes (migration) on ${TEST_BACKEND}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('a rectangle keeps its item, name, place and window; new ones are left alone; down gives rectangles back', async () => {
    const db = database.db;
    const old = [
      { item: 0, name: 'Logo', x: 0.1, y: 0.2, width: 0.3, height: 0.4, from: 1, to: 2 },
      { item: 1, name: 'Old', x: 0, y: 0, width: 0.5, height: 0.5 },
    ];
    const polygon = {
      item: 2,
      name: 'Pack',
      shape: {
        kind: 'polygon',
        points: [
          { x: 0.1, y: 0.1 },
          { x: 0.5, y: 0.2 },
          { x: 0.2, y: 0.6 },
        ],
      },
      key_frames: [],
      from: null,
      to: null,
    };
    await sql`create schema area_probe`.execute(db);
    try {
      await sql`create table area_probe.reports (id int, areas jsonb not null)`.execute(db);
      await sql`insert into area_probe.reports values (1, ${JSON.stringify(old)}::jsonb), (2, ${JSON.stringify([polygon])}::jsonb), (3, '[]'::jsonb)`.execute(
        db,
      );
      await sql`set search_path to area_probe`.execute(db);
      const areas = async () =>
        (await sql<{ areas: unknown }>`select areas from reports order by id`.execute(db)).rows.map((r) => r.areas);
      await up(db);
      expect(await areas()).toEqual([
        [
          {
            item: 0,
            name: 'Logo',
            shape: { kind: 'rectangle', x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
            key_frames: [],
            from: 1,
            to: 2,
          },
          {
            item: 1,
            name: 'Old',
            shape: { kind: 'rectangle', x: 0, y: 0, width: 0.5, height: 0.5 },
            key_frames: [],
            from: null,
            to: null,
          },
        ],
        [polygon],
        [],
      ]);
      await down(db);
      const [first, second] = await areas();
      expect(first).toEqual([
        { item: 0, name: 'Logo', x: 0.1, y: 0.2, width: 0.3, height: 0.4, from: 1, to: 2 },
        { item: 1, name: 'Old', x: 0, y: 0, width: 0.5, height: 0.5, from: null, to: null },
      ]);
      expect(second).toEqual([
        {
          item: 2,
          name: 'Pack',
          x: 0.1,
          y: 0.1,
          width: expect.closeTo(0.4, 9),
          height: expect.closeTo(0.5, 9),
          from: null,
          to: null,
        },
      ]);
    } finally {
      await sql`set search_path to default`.execute(db);
      await sql`drop schema area_probe cascade`.execute(db);
    }
  });
});
