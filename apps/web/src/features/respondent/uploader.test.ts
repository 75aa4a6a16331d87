import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/client.ts';
import { type ChunkStore, openChunkStore } from './chunk-store.ts';
import { Uploader } from './uploader.ts';

const FAST = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 };
const bytes = (...values: number[]) => new Uint8Array(values).buffer;

/** A server that stores chunks by (segment, index) like the contract says: same bytes again is fine. */
function fakeServer() {
  const stored = new Map<string, string>();
  const calls: string[] = [];
  let failNext = 0;
  let lostAnswers = 0;
  return {
    stored,
    calls,
    failTimes(n: number) {
      failNext = n;
    },
    loseAnswers(n: number) {
      lostAnswers = n;
    },
    async send(segment: number, index: number, data: ArrayBuffer) {
      const key = `${segment}/${index}`;
      calls.push(key);
      if (failNext > 0) {
        failNext -= 1;
        throw new ApiRequestError(0, { code: 'service_unavailable' });
      }
      const body = [...new Uint8Array(data)].join(',');
      const existing = stored.get(key);
      if (existing !== undefined && existing !== body) throw new ApiRequestError(409, { code: 'conflict' });
      const expected = [...stored.keys()].filter((k) => k.startsWith(`${segment}/`)).length;
      if (existing === undefined && index > expected) throw new ApiRequestError(409, { code: 'conflict' });
      stored.set(key, body);
      if (lostAnswers > 0) {
        // Stored, but the answer never reaches the browser.
        lostAnswers -= 1;
        throw new ApiRequestError(0, { code: 'service_unavailable' });
      }
    },
  };
}

async function freshStore(): Promise<{ store: ChunkStore; factory: IDBFactory }> {
  // One database per test: a new factory is a new, empty IndexedDB.
  const { IDBFactory } = await import('fake-indexeddb');
  const factory = new IDBFactory();
  return { store: await openChunkStore(factory), factory };
}

describe('chunk store', () => {
  it('keeps chunks per session in (segment, index) order until removed', async () => {
    const { store } = await freshStore();
    await store.put({ session: 's', segment: 1, index: 0, data: bytes(3) });
    await store.put({ session: 's', segment: 0, index: 1, data: bytes(2) });
    await store.put({ session: 's', segment: 0, index: 0, data: bytes(1) });
    await store.put({ session: 'other', segment: 0, index: 0, data: bytes(9) });
    const pending = await store.pending('s');
    expect(pending.map((c) => [c.segment, c.index, [...new Uint8Array(c.data)]])).toEqual([
      [0, 0, [1]],
      [0, 1, [2]],
      [1, 0, [3]],
    ]);
    await store.remove('s', 0, 0);
    expect((await store.pending('s')).map((c) => c.index)).toEqual([1, 0]);
    expect(await store.pending('other')).toHaveLength(1);
  });
});

describe('uploader', () => {
  it('sends every chunk in order and empties the store', async () => {
    const { store } = await freshStore();
    const server = fakeServer();
    const up = new Uploader({ store, session: 's', send: server.send, retry: FAST });
    for (let i = 0; i < 5; i++) await up.add(0, i, bytes(i));
    await up.flush();
    expect(server.calls).toEqual(['0/0', '0/1', '0/2', '0/3', '0/4']);
    expect(await store.pending('s')).toEqual([]);
    expect(up.segments()).toEqual([{ segment: 0, chunks: 5 }]);
    expect(up.progress().sentBytes).toBe(5);
  });

  it('retries a failing chunk and stores it once when an answer was lost', async () => {
    const { store } = await freshStore();
    const server = fakeServer();
    const up = new Uploader({ store, session: 's', send: server.send, retry: FAST });
    server.failTimes(2);
    await up.add(0, 0, bytes(7));
    await up.flush();
    server.loseAnswers(1);
    await up.add(0, 1, bytes(8));
    await up.flush();
    expect(server.stored.size).toBe(2);
    expect(server.calls.filter((c) => c === '0/1')).toHaveLength(2);
    expect(up.segments()).toEqual([{ segment: 0, chunks: 2 }]);
  });

  it('stops after exhausting its retries, keeps the chunk, and goes on when asked', async () => {
    const { store } = await freshStore();
    const server = fakeServer();
    const progress: boolean[] = [];
    const up = new Uploader({
      store,
      session: 's',
      send: server.send,
      retry: FAST,
      onProgress: (p) => progress.push(p.failed),
    });
    server.failTimes(3);
    await up.add(0, 0, bytes(1));
    await expect(up.flush()).rejects.toBeInstanceOf(ApiRequestError);
    expect(up.failed).toBe(true);
    expect(server.calls).toEqual(['0/0', '0/0', '0/0']);
    expect(await store.pending('s')).toHaveLength(1);
    expect(progress).toContain(true);

    up.retry();
    await up.flush();
    expect(up.failed).toBe(false);
    expect(server.stored.get('0/0')).toBe('1');
    expect(await store.pending('s')).toEqual([]);
  });

  it('does not retry a refusal of the server', async () => {
    const { store } = await freshStore();
    const up = new Uploader({
      store,
      session: 's',
      send: async () => {
        throw new ApiRequestError(409, { code: 'conflict' });
      },
      retry: FAST,
    });
    await up.add(0, 0, bytes(1));
    await expect(up.flush()).rejects.toMatchObject({ status: 409 });
  });

  it('loses nothing across a reload: a new page sends what the old one left, then its own segment', async () => {
    const { IDBFactory } = await import('fake-indexeddb');
    const factory = new IDBFactory();
    const server = fakeServer();
    // The first page records four chunks; the network is down for the last two, then the page reloads.
    const first = await openChunkStore(factory);
    const page1 = new Uploader({ store: first, session: 's', send: server.send, retry: FAST });
    await page1.add(0, 0, bytes(10));
    await page1.add(0, 1, bytes(11));
    await page1.flush();
    server.failTimes(100);
    await page1.add(0, 2, bytes(12));
    await page1.add(0, 3, bytes(13));
    await expect(page1.flush()).rejects.toBeInstanceOf(ApiRequestError);
    first.close();
    server.failTimes(0);

    // The reloaded page: the session state says two chunks of segment 0 arrived; a new segment 1.
    const second = await openChunkStore(factory);
    const page2 = new Uploader({
      store: second,
      session: 's',
      send: server.send,
      retry: FAST,
      acknowledged: [{ segment: 0, chunks: 2 }],
    });
    await page2.add(1, 0, bytes(20));
    await page2.flush();
    expect([...server.stored.entries()]).toEqual([
      ['0/0', '10'],
      ['0/1', '11'],
      ['0/2', '12'],
      ['0/3', '13'],
      ['1/0', '20'],
    ]);
    expect(page2.segments()).toEqual([
      { segment: 0, chunks: 4 },
      { segment: 1, chunks: 1 },
    ]);
    expect(await second.pending('s')).toEqual([]);
  });
});
