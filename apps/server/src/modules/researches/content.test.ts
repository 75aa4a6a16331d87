import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MESSAGES, mediaListOutput, type Research, researchOutput, type WebTaskInput } from '@emolens/contracts';
import { ffmpegPaths } from '@emolens/engine';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASTRONAUT, type Client, filesIn, loggedIn, TEST_BACKEND } from '../../test/harness.ts';
import { mediaAppPerFile } from '../../test/media-app.ts';
import { emptyStorageTrashJob } from '../media/jobs/empty-storage-trash.job.ts';
import { storageFor } from '../media/storage.ts';

const t = mediaAppPerFile('content-test');
let png: Buffer;
let alice: Client;
let bob: Client;
let projectId: string;

beforeAll(async () => {
  png = await readFile(ASTRONAUT);
});
beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  projectId = await alice.draftProject();
});

async function newResearch(content_type: string, extra: Record<string, unknown> = {}): Promise<Research> {
  const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: {
      project_id: projectId,
      from_wizard: true,
      campaigns_data: [{ title: `A ${content_type}`, content_type, ...extra }],
    },
  });
  expect(added.statusCode, added.body).toBe(201);
  return researchOutput.parse(added.json().campaigns[0]);
}

async function picture(researchId: string, name: string): Promise<string> {
  const res = await alice.upload(researchId, name, png, 'image/png');
  expect(res.statusCode, res.body).toBe(204);
  return String(res.headers['x-media-id']);
}

async function read(id: string, client = alice): Promise<Research> {
  return researchOutput.parse((await client.request('GET', `/api/cabinet/campaigns/${id}/get-campaign-data/`)).json());
}

function save(research: Research, body: Record<string, unknown>, client = alice) {
  return client.request('PATCH', `/api/cabinet/campaigns/${research.id}/update-campaign-data/`, {
    body: { ...body, updated_at: research.updated_at },
  });
}

describe(`pictures gallery on ${TEST_BACKEND}`, () => {
  it('holds every uploaded picture with the default 10 s; order and durations are saved; a deleted picture leaves', async () => {
    const research = await newResearch('pictures');
    const a = await picture(research.id, 'a.png');
    const b = await picture(research.id, 'b.png');
    const c = await picture(research.id, 'c.png');
    let now = await read(research.id);
    expect(now.picture_gallery.items).toEqual([
      { image: a, duration_seconds: 10 },
      { image: b, duration_seconds: 10 },
      { image: c, duration_seconds: 10 },
    ]);

    const saved = await save(now, {
      picture_gallery: {
        items: [
          { image: c, duration_seconds: 3 },
          { image: a, duration_seconds: 15 },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    now = await read(research.id);
    // b was not listed: it stays in the gallery, at the end.
    expect(now.picture_gallery.items).toEqual([
      { image: c, duration_seconds: 3 },
      { image: a, duration_seconds: 15 },
      { image: b, duration_seconds: 10 },
    ]);

    expect((await alice.request('DELETE', `/api/cabinet/media/${c}/`)).statusCode).toBe(204);
    expect((await read(research.id)).picture_gallery.items.map((i) => i.image)).toEqual([a, b]);
  });

  it('refuses a picture twice, another research’s file, and durations out of range, with the messages', async () => {
    const research = await newResearch('pictures');
    const other = await newResearch('pictures');
    const a = await picture(research.id, 'a.png');
    const foreign = await picture(other.id, 'x.png');
    const now = await read(research.id);

    const twice = await save(now, {
      picture_gallery: {
        items: [
          { image: a, duration_seconds: 5 },
          { image: a, duration_seconds: 5 },
        ],
      },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fields).toEqual({ 'picture_gallery.items.1.image': MESSAGES['content.pictureTwice'] });

    const elsewhere = await save(now, { picture_gallery: { items: [{ image: foreign, duration_seconds: 5 }] } });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().fields).toEqual({ 'picture_gallery.items.0.image': MESSAGES['content.imageUnknown'] });

    const long = await save(now, { picture_gallery: { items: [{ image: a, duration_seconds: 0 }] } });
    expect(long.json().fields).toEqual({ 'picture_gallery.items.0.duration_seconds': 'must be between 1 and 600' });
    expect((await read(research.id)).updated_at).toBe(now.updated_at);
  });
});

describe(`pictures on ${TEST_BACKEND}`, () => {
  it('records the pixel size of PNG and JPEG pictures (zones and points are drawn on them)', async () => {
    const research = await newResearch('shelf');
    const jpegFile = join(t.dir, 'wide.jpg');
    execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', '-i', ASTRONAUT, '-vf', 'scale=320:200', jpegFile]);
    const pngId = await picture(research.id, 'a.png');
    const jpegRes = await alice.upload(research.id, 'wide.jpg', await readFile(jpegFile), 'image/jpeg');
    const jpegId = String(jpegRes.headers['x-media-id']);
    const list = mediaListOutput.parse(
      (await alice.request('GET', `/api/cabinet/campaigns/${research.id}/media/`)).json(),
    );
    const size = (id: string) => list.items.filter((m) => m.id === id).map((m) => [m.width, m.height]);
    expect(size(pngId)).toEqual([[512, 512]]);
    expect(size(jpegId)).toEqual([[320, 200]]);
  });
});

describe(`shelf displays and zones on ${TEST_BACKEND}`, () => {
  const zone = (description: string, x = 0.1) => ({ name: 'Pack', description, x, y: 0.2, width: 0.3, height: 0.4 });

  it('saves shelves with zones and the random-order setting', async () => {
    const research = await newResearch('shelf');
    const image = await picture(research.id, 'shelf.png');
    const shelves = [
      {
        id: 'd1',
        name: 'Dairy',
        task: 'Find the yoghurt you would buy',
        duration_seconds: 20,
        auto_display: false,
        image,
        zones: [zone('Brand A yoghurt'), zone('Brand B yoghurt', 0.5)],
      },
    ];
    const saved = await save(await read(research.id), {
      shelf_content_scenario: shelves,
      shelf_setting: { isRandomOrder: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const now = await read(research.id);
    expect(now.shelf_content_scenario).toEqual(shelves);
    expect(now.shelf_setting).toEqual({ isRandomOrder: true });
  });

  it("rejects zone descriptions that repeat (case and spacing aside) with the spec's message", async () => {
    const research = await newResearch('shelf');
    const image = await picture(research.id, 'shelf.png');
    const res = await save(await read(research.id), {
      shelf_content_scenario: [
        { id: 'd1', name: 'Dairy', image, zones: [zone('Brand A yoghurt'), zone('  brand a   YOGHURT ', 0.5)] },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'shelf_content_scenario.0.zones.1.description': 'Zone descriptions must be unique',
    });
    expect((await read(research.id)).shelf_content_scenario).toEqual([]);
  });

  it('rejects a zone outside the image, a missing name and an image of another research', async () => {
    const research = await newResearch('shelf');
    const image = await picture(research.id, 'shelf.png');
    const res = await save(await read(research.id), {
      shelf_content_scenario: [
        { id: 'd1', name: '', image, zones: [{ ...zone('A'), x: 0.9, width: 0.3 }] },
        { id: 'd2', name: 'Bakery', image: '6d1f0c8e-0000-4000-8000-000000000000' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'shelf_content_scenario.0.name': MESSAGES['validation.required'],
      'shelf_content_scenario.0.zones.0.width': MESSAGES['content.zoneOutside'],
    });
    const unknown = await save(await read(research.id), {
      shelf_content_scenario: [{ id: 'd2', name: 'Bakery', image: '6d1f0c8e-0000-4000-8000-000000000000' }],
    });
    expect(unknown.json().fields).toEqual({ 'shelf_content_scenario.0.image': MESSAGES['content.imageUnknown'] });
  });

  it('keeps a shelf image while a shelf uses it', async () => {
    const research = await newResearch('shelf');
    const image = await picture(research.id, 'shelf.png');
    const spare = await picture(research.id, 'spare.png');
    await save(await read(research.id), { shelf_content_scenario: [{ id: 'd1', name: 'Dairy', image }] });
    const refused = await alice.request('DELETE', `/api/cabinet/media/${image}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('media_in_use');
    await save(await read(research.id), { shelf_content_scenario: [{ id: 'd1', name: 'Dairy', image: spare }] });
    expect((await alice.request('DELETE', `/api/cabinet/media/${image}/`)).statusCode).toBe(204);
  });
});

describe(`website-prototype tasks on ${TEST_BACKEND}`, () => {
  function task(image: string, extra: Partial<WebTaskInput> = {}): WebTaskInput {
    return {
      id: 't1',
      description: 'Add the blue sneakers to the basket',
      image,
      final_point: { x: 0.8, y: 0.1 },
      steps: [
        { description: 'Catalogue', targetNodeId: '12:345' },
        { description: 'Basket', targetNodeId: '12-400', isFinal: true },
      ],
      ...extra,
    };
  }
  const tasks = (list: unknown[]) => ({ settings: { webResourceScenario: list } });

  it('saves a complete task with its steps, points and time limit', async () => {
    const research = await newResearch('site', { site_url: 'https://shop.example.com' });
    const image = await picture(research.id, 'screen.png');
    const res = await save(
      await read(research.id),
      tasks([task(image, { timeout: 90, additional_points: [{ x: 0.2, y: 0.3 }] })]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [saved] = (await read(research.id)).settings.webResourceScenario;
    expect(saved).toMatchObject({
      description: 'Add the blue sneakers to the basket',
      image,
      final_point: { x: 0.8, y: 0.1 },
      additional_points: [{ x: 0.2, y: 0.3 }],
      timeout: 90,
      is_timeout: true,
      anyIsFinal: false,
    });
    expect(saved?.steps.map((s) => [s.targetNodeId, s.isFinal])).toEqual([
      ['12:345', false],
      ['12-400', true],
    ]);
  });

  it('requires the screenshot and the final point, and rejects a step already in the list', async () => {
    const research = await newResearch('site');
    const image = await picture(research.id, 'screen.png');
    const now = await read(research.id);
    const missing = await save(now, tasks([{ id: 't1', description: '', image: '', final_point: null }]));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({
      'settings.webResourceScenario.0.description': MESSAGES['validation.required'],
      'settings.webResourceScenario.0.image': MESSAGES['content.screenshotRequired'],
      'settings.webResourceScenario.0.final_point': MESSAGES['content.finalPointRequired'],
    });

    const repeated = await save(
      now,
      tasks([
        task(image, {
          steps: [{ targetNodeId: '12:345' }, { targetNodeId: '12-345', isFinal: true }, { targetNodeId: '' }],
        }),
      ]),
    );
    expect(repeated.json().fields).toEqual({
      'settings.webResourceScenario.0.steps.1.targetNodeId': MESSAGES['content.stepTwice'],
      'settings.webResourceScenario.0.steps.2.targetNodeId': MESSAGES['content.nodeIdMissing'],
    });

    const noFinal = await save(now, tasks([task(image, { steps: [{ targetNodeId: '1:2' }] })]));
    expect(noFinal.json().fields).toEqual({
      'settings.webResourceScenario.0.steps': MESSAGES['content.finalStepMissing'],
    });

    const anyClick = await save(now, tasks([task(image, { anyIsFinal: true })]));
    expect(anyClick.json().fields).toEqual({
      'settings.webResourceScenario.0.steps': MESSAGES['content.anyClickHasNoSteps'],
    });
    expect((await read(research.id)).settings.webResourceScenario).toEqual([]);
  });

  it('needs a Figma link when the research shows a Figma prototype', async () => {
    const research = await newResearch('site', { site_url: 'https://shop.example.com' });
    const refused = await save(await read(research.id), { settings: { isFigma: true } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ site_url: MESSAGES['content.figmaUrl'] });
    const ok = await save(await read(research.id), {
      site_url: 'https://www.figma.com/proto/AbCdEfGhIjKlMnOp/Shop?node-id=1-2',
      settings: { isFigma: true },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses tasks in a new research: it has no screenshot yet', async () => {
    const res = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: projectId,
        campaigns_data: [{ title: 'Site', content_type: 'site', settings: { webResourceScenario: [task('x')] } }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'campaigns_data.0.settings.webResourceScenario.0.image': MESSAGES['content.imageUnknown'],
    });
  });
});

describe(`content permissions and deletion on ${TEST_BACKEND}`, () => {
  it("another customer can neither read nor change a research's content, nor see its files", async () => {
    const research = await newResearch('pictures');
    const a = await picture(research.id, 'a.png');
    const now = await read(research.id);
    const res = await save(now, { picture_gallery: { items: [{ image: a, duration_seconds: 99 }] } }, bob);
    expect(res.statusCode).toBe(404);
    expect((await bob.request('GET', `/api/cabinet/media/${a}/file/`)).statusCode).toBe(404);
    expect((await read(research.id)).picture_gallery.items).toEqual([{ image: a, duration_seconds: 10 }]);
    const file = await alice.request('GET', `/api/cabinet/media/${a}/file/`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(png)).toBe(true);
  });

  it('removes the stored files when a research or a whole project is deleted', async () => {
    const first = await newResearch('pictures');
    const second = await newResearch('pictures');
    await picture(first.id, 'a.png');
    await picture(second.id, 'b.png');
    await picture(second.id, 'c.png');
    expect(await filesIn(t.mediaDir)).toHaveLength(3);

    expect((await alice.request('DELETE', `/api/cabinet/campaigns/${first.id}/`)).statusCode).toBe(204);
    expect(await filesIn(t.mediaDir)).toHaveLength(2);
    expect((await alice.request('DELETE', `/api/cabinet/projects/${projectId}/`)).statusCode).toBe(204);
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect(await t.database.db.selectFrom('storage_trash').selectAll().execute()).toEqual([]);
  });

  it('keeps what storage could not delete and removes it on the next run of the job', async () => {
    const research = await newResearch('pictures');
    await picture(research.id, 'a.png');
    const storage = storageFor(t.app.ctx.config);
    const original = storage.delete.bind(storage);
    storage.delete = async () => {
      throw new Error('storage is down');
    };
    try {
      expect((await alice.request('DELETE', `/api/cabinet/campaigns/${research.id}/`)).statusCode).toBe(204);
    } finally {
      storage.delete = original;
    }
    expect(await filesIn(t.mediaDir)).toHaveLength(1);
    expect(await t.database.db.selectFrom('storage_trash').selectAll().execute()).toHaveLength(1);

    await t.app.ctx.queue.run(emptyStorageTrashJob, {});
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect(await t.database.db.selectFrom('storage_trash').selectAll().execute()).toEqual([]);
  });
});
