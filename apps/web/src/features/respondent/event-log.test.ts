import type { EventBatchInput } from '@emolens/contracts';
import { eventBatchInput, RESPONDENT_LIMITS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/client.ts';
import { EventLog, type EventLogOptions, eventLogKey, type KeyValueStorage } from './event-log.ts';

const FAST = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 };

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/** The server's side of event batches: idempotent by seq, no gaps. */
function fakeServer() {
  const batches = new Map<number, string>();
  let down = false;
  return {
    batches,
    setDown(value: boolean) {
      down = value;
    },
    get next() {
      return batches.size;
    },
    async send(batch: EventBatchInput) {
      if (down) throw new ApiRequestError(0, { code: 'service_unavailable' });
      eventBatchInput.parse(batch);
      const body = JSON.stringify(batch.events);
      const existing = batches.get(batch.seq);
      if (existing !== undefined && existing !== body) throw new ApiRequestError(409, { code: 'conflict' });
      if (existing === undefined && batch.seq !== batches.size) throw new ApiRequestError(409, { code: 'conflict' });
      batches.set(batch.seq, body);
    },
  };
}

/** A log of session 's' with fast retries; by default its own empty storage, a server that takes all, seq 0, clock 0. */
function eventLog(options: Partial<EventLogOptions>): EventLog {
  return new EventLog({
    session: 's',
    storage: memoryStorage(),
    send: async () => {},
    serverNextSeq: 0,
    clockMs: 0,
    retry: FAST,
    ...options,
  });
}

function clock(start = 1000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  };
}

describe('event log', () => {
  it('stamps times on the session clock: server offset plus time since', async () => {
    const c = clock(5000);
    const server = fakeServer();
    const log = eventLog({ send: server.send, clockMs: 300, now: c.now });
    c.advance(200);
    expect(log.log({ type: 'calibration_start' }).t).toBe(500);
    log.startSegment(10_000);
    c.advance(1500);
    expect(log.log({ type: 'segment_start', segment: 0 }).t).toBe(11_500);
  });

  it('never goes backwards, even when a segment offset is earlier than a logged time', () => {
    const c = clock();
    const log = eventLog({ clockMs: 20_000, now: c.now });
    const times: number[] = [];
    times.push(log.log({ type: 'calibration_start' }).t);
    log.startSegment(19_000);
    times.push(log.log({ type: 'segment_start', segment: 0 }).t);
    c.advance(3);
    times.push(log.log({ type: 'calibration_end' }).t);
    expect(times).toEqual([20_000, 20_000, 20_000]);
    c.advance(2000);
    expect(log.log({ type: 'validation_end' }).t).toBe(21_003);
  });

  it('numbers batches and sends each once, in order', async () => {
    const c = clock();
    const server = fakeServer();
    const log = eventLog({ send: server.send, now: c.now });
    for (let i = 0; i < RESPONDENT_LIMITS.eventsPerBatch + 3; i++) {
      c.advance(10);
      log.log({ type: 'calibration_dot', x: i, y: i });
    }
    await log.flush();
    expect(log.batches).toBe(2);
    expect([...server.batches.keys()]).toEqual([0, 1]);
    const all = [...server.batches.values()].flatMap((b) => JSON.parse(b) as { t: number }[]);
    expect(all).toHaveLength(RESPONDENT_LIMITS.eventsPerBatch + 3);
    const ts = all.map((e) => e.t);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
  });

  it('continues the numbering after a reload and resends what the server did not get', async () => {
    const storage = memoryStorage();
    const server = fakeServer();
    const c = clock();
    const page1 = eventLog({ storage, send: server.send, now: c.now });
    page1.log({ type: 'step', step: 'calibration' });
    await page1.flush();
    server.setDown(true);
    c.advance(100);
    page1.log({ type: 'calibration_start' });
    await expect(page1.flush()).rejects.toBeInstanceOf(ApiRequestError);
    c.advance(100);
    page1.log({ type: 'calibration_end' });
    page1.persist();
    expect(JSON.parse(storage.map.get(eventLogKey('s')) ?? '{}').nextSeq).toBe(2);

    // The page reloads (performance.now starts again); the server has batch 0 only.
    server.setDown(false);
    c.set(0);
    const page2 = eventLog({ storage, send: server.send, serverNextSeq: server.next, clockMs: 60_000, now: c.now });
    page2.startSegment(61_000);
    c.advance(50);
    page2.log({ type: 'segment_start', segment: 1 });
    await page2.flush();
    // Batch 1 again, batch 2 = the last event the first page kept, batch 3 = the new page's.
    expect(page2.batches).toBe(4);
    expect([...server.batches.keys()]).toEqual([0, 1, 2, 3]);
    const types = [...server.batches.values()].flatMap((b) => (JSON.parse(b) as { type: string }[]).map((e) => e.type));
    expect(types).toEqual(['step', 'calibration_start', 'calibration_end', 'segment_start']);
    const ts = [...server.batches.values()].flatMap((b) => (JSON.parse(b) as { t: number }[]).map((e) => e.t));
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    expect(ts.at(-1)).toBe(61_050);
  });

  it('starts from the server number when the browser kept nothing', async () => {
    const server = fakeServer();
    await server.send({ seq: 0, events: [{ type: 'calibration_start', t: 1 }] });
    const log = eventLog({ send: server.send, serverNextSeq: 1, clockMs: 100 });
    log.log({ type: 'calibration_end' });
    await log.flush();
    expect([...server.batches.keys()]).toEqual([0, 1]);
  });
});
