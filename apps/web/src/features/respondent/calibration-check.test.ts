import type { CalibrationCheckInput, CalibrationCheckState, SessionEnd } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/client.ts';
import { type CheckDeps, checkCalibration } from './calibration-check.ts';

const FAST = { tailMs: 1, pollMs: 1, timeoutMs: 5000 };
const SENT = { segments: [{ segment: 0, chunks: 3 }], event_batches: 2 };
const END: SessionEnd = { outcome: 'screen_out', code: 'ABCDEFG-HJKLMNP', token: 't', redirect_url: null, mturk: null };

const state = (attempt: number, over: Partial<CalibrationCheckState>): CalibrationCheckState => ({
  attempt,
  status: 'queued',
  progress: 0,
  threshold_percent: 10,
  accuracy_percent: null,
  error: null,
  next: null,
  end: null,
  ...over,
});

/** A server's checks by attempt: each asked once, then polled through the given states in turn. */
function fakeServer(answers: Record<number, CalibrationCheckState[]>) {
  const asked: CalibrationCheckInput[] = [];
  const polled: number[] = [];
  const api: CheckDeps['api'] = {
    async calibrationCheck(_id, _secret, input) {
      asked.push(input);
      const list = answers[input.attempt];
      if (!list?.length) throw new ApiRequestError(409, { code: 'invalid_state' });
      return list[0] as CalibrationCheckState;
    },
    async calibrationCheckState(_id, _secret, attempt) {
      polled.push(attempt);
      const list = answers[attempt] ?? [];
      if (list.length > 1) list.shift();
      return list[0] as CalibrationCheckState;
    },
  };
  return { api, asked, polled };
}

const runtime = (sent: typeof SENT | null = SENT): CheckDeps['runtime'] => ({
  id: 's1',
  secret: 'x',
  sendSoFar: async () => sent,
});

describe("the page's calibration check", () => {
  it('sends what was recorded, polls the progress and goes on to the content when the check passes', async () => {
    const server = fakeServer({
      1: [
        state(1, {}),
        state(1, { status: 'processing', progress: 40 }),
        state(1, { status: 'passed', next: 'content' }),
      ],
    });
    const progress: number[] = [];
    const outcome = await checkCalibration(
      runtime(),
      1,
      (p) => progress.push(p),
      () => false,
      {
        api: server.api,
        timing: FAST,
      },
    );
    expect(outcome).toEqual({ next: 'content', checked: true });
    expect(server.asked).toEqual([{ attempt: 1, ...SENT }]);
    expect(progress).toEqual([0, 40, 100]);
  });

  it('repeats after a first failure, ends after a second, and asks the next attempt after a reload', async () => {
    const repeat = fakeServer({ 1: [state(1, {}), state(1, { status: 'failed', next: 'repeat' })] });
    // Asked for attempt 1 and told it is over already: this calibration came after a reload, it is attempt 2.
    const ended = fakeServer({
      1: [state(1, { status: 'failed', next: 'repeat' })],
      2: [state(2, {}), state(2, { status: 'failed', next: 'end', end: END })],
    });
    const options = { timing: FAST };
    expect(
      await checkCalibration(
        runtime(),
        1,
        () => {},
        () => false,
        { ...options, api: repeat.api },
      ),
    ).toEqual({ next: 'repeat', attempt: 2 });
    expect(
      await checkCalibration(
        runtime(),
        1,
        () => {},
        () => false,
        { ...options, api: ended.api },
      ),
    ).toEqual({
      next: 'end',
      end: END,
    });
    expect(ended.asked.map((a) => a.attempt)).toEqual([1, 2]);
    const flagged = fakeServer({ 2: [state(2, { status: 'failed', next: 'continue_flagged' })] });
    expect(
      await checkCalibration(
        runtime(),
        2,
        () => {},
        () => false,
        { ...options, api: flagged.api },
      ),
    ).toEqual({
      next: 'continue_flagged',
    });
  });

  it('never holds the respondent: a refused request, a check that runs too long or nothing sent go on', async () => {
    const refused = fakeServer({});
    expect(
      await checkCalibration(
        runtime(),
        1,
        () => {},
        () => false,
        { api: refused.api, timing: FAST },
      ),
    ).toEqual({
      next: 'content',
      checked: false,
    });
    const slow = fakeServer({ 1: [state(1, { status: 'processing' })] });
    const timing = { ...FAST, pollMs: 5, timeoutMs: 30 };
    expect(
      await checkCalibration(
        runtime(),
        1,
        () => {},
        () => false,
        { api: slow.api, timing },
      ),
    ).toEqual({
      next: 'content',
      checked: false,
    });
    expect(slow.polled.length).toBeGreaterThan(1);
    const preview = fakeServer({ 1: [state(1, { status: 'passed', next: 'content' })] });
    expect(
      await checkCalibration(
        runtime(null),
        1,
        () => {},
        () => false,
        { api: preview.api, timing: FAST },
      ),
    ).toEqual({ next: 'content', checked: false });
    expect(preview.asked).toEqual([]);
  });
});
