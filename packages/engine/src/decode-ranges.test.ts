import { describe, expect, it } from 'vitest';
import { RANGE_JOIN_MS, rangeStartTimes } from './decode-ranges.ts';
import { planSources } from './node/session-windows.ts';
import type { SessionEvent } from './session-types.ts';

/** Where the server starts decoding one file holding the whole session (ms), for the research `campaign`. */
function serverStarts(events: SessionEvent[], campaign: string): number[] {
  const screen: SessionEvent = { type: 'screen', t: 0, width: 1280, height: 720, device_pixel_ratio: 1 };
  const { plan } = planSources(
    {
      events: [screen, ...events],
      research: { researchId: campaign, kind: 'pictures', items: [], durationSeconds: null },
    },
    [{ offsetMs: 0, duration: null }],
    null,
    [],
    'the recording',
  );
  return (plan[0]?.ranges ?? []).map((r) => Math.round(r.start * 1000));
}

const calibration = (start: number, end: number, validationEnd?: number): SessionEvent[] => [
  { type: 'calibration_start', t: start },
  { type: 'calibration_end', t: end },
  ...(validationEnd === undefined ? [] : [{ type: 'validation_end', t: validationEnd } as SessionEvent]),
];
const research = (id: string, start: number, end: number): SessionEvent[] => [
  { type: 'research_start', t: start, campaign_id: id, index: 0 },
  { type: 'research_end', t: end, campaign_id: id, index: 0 },
];

describe('where the engine starts afresh', () => {
  it("is where the server's decoder starts a range, for every research of the session", () => {
    const logs: { name: string; events: SessionEvent[]; campaigns: string[] }[] = [
      {
        name: 'research right after the validation (one range)',
        events: [...calibration(300, 7300, 10_300), ...research('a', 10_300 + RANGE_JOIN_MS, 14_800)],
        campaigns: ['a'],
      },
      {
        name: 'research a second after the calibration (two ranges)',
        events: [...calibration(300, 7300), ...research('a', 8300, 12_000)],
        campaigns: ['a'],
      },
      { name: 'no calibration', events: research('a', 2000, 6000), campaigns: ['a'] },
      {
        name: 'two researches after one calibration',
        events: [...calibration(0, 5000, 6000), ...research('a', 6100, 9000), ...research('b', 9400, 12_000)],
        campaigns: ['a', 'b'],
      },
      {
        name: 'a second calibration before the second research',
        events: [
          ...calibration(0, 5000),
          ...research('a', 5200, 9000),
          ...calibration(9500, 14_000, 15_000),
          ...research('b', 15_200, 20_000),
        ],
        campaigns: ['a', 'b'],
      },
    ];
    for (const { name, events, campaigns } of logs) {
      const device = rangeStartTimes(events);
      for (const campaign of campaigns) {
        // Each research's own ranges begin where the device starts afresh, and nothing of the research's ranges runs
        // across a device restart.
        const server = serverStarts(events, campaign);
        for (const start of server) expect(device, `${name}, research ${campaign}`).toContain(start);
        const research = events.find((e) => e.type === 'research_start' && e.campaign_id === campaign);
        const inside = device.filter((t) => t > (server[0] ?? 0) && t <= (research?.t ?? 0));
        for (const t of inside) expect(server, `${name}, research ${campaign}: a restart at ${t}`).toContain(t);
      }
    }
  });

  it('starts at a calibration that never ended, and runs on into the research after it', () => {
    const events: SessionEvent[] = [{ type: 'calibration_start', t: 100 }, ...research('a', 4000, 8000)];
    expect(rangeStartTimes(events)).toEqual([100]);
    expect(serverStarts(events, 'a')).toEqual([100]);
  });
});
