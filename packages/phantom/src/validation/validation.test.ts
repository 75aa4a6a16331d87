/**
 * The CI guard of issue 30: the short phantom set (`npm run validate -- --short`) through the engine as the worker
 * runs it. The bounds are today's figures with a margin — a change that makes the engine recover the phantoms
 * worse fails here; the goals themselves are in docs/validation.md (`npm run validate`), most not met yet.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCases, validationCases } from './cases.ts';

/**
 * Today's short-set figures (astronaut, 15 fps): gaze median 9.7% of the diagonal. Smiles are the engine's smile index
 * against the calibration's resting face (decision 033): on the astronaut's 30 fps phantoms both moderate smiles found,
 * started +100 and 0 ms from their onsets, r = 0.99 with the injected intensity, the neutral face at most 0.07 against
 * the threshold's 0.125 — so no false smile, and every onset within the goal's ±200 ms.
 */
const GUARD = {
  /** 4.2% after decision 032 (9.7% before it); the same frames replayed offline gave 4.7%: the margin covers that. */
  gazeMedianPercent: 6,
  gazeLostShare: 0.05,
  smileCorrelation: 0.9,
  smileOnsetMs: 200,
  neutralFalseSmiles: 0,
} as const;

describe('the engine on the short phantom set', () => {
  // The smile and neutral phantoms run a whole session (calibration and validation dots first, ~31 s each).
  it('recovers gaze, smiles and a neutral face no worse than it did', { timeout: 900_000 }, async () => {
    const dir = resolve(import.meta.dirname, '../../../../.tmp/phantoms-ci');
    const { results } = await runCases(validationCases({ short: true }), dir);

    const gaze = results.find((r) => r.gaze)?.gaze;
    expect(gaze?.calibration.status).toBe('calibrated');
    expect(gaze?.overall.samples).toBeGreaterThan(100);
    expect(gaze?.overall.medianPercent).toBeLessThanOrEqual(GUARD.gazeMedianPercent);
    expect(gaze?.overall.lostShare).toBeLessThanOrEqual(GUARD.gazeLostShare);

    const smile = results.find((r) => r.case.script.name.startsWith('smile'))?.expressions?.[0];
    expect(smile?.injected).toBe(2);
    expect(smile?.hits).toBe(2);
    expect(smile?.correlation).toBeGreaterThanOrEqual(GUARD.smileCorrelation);
    for (const onset of smile?.onsetErrorsMs ?? []) expect(Math.abs(onset)).toBeLessThanOrEqual(GUARD.smileOnsetMs);

    const neutral = results.find((r) => r.case.script.name.startsWith('neutral'))?.expressions ?? [];
    expect(neutral.find((e) => e.kind === 'smile')?.falseAlarms).toBeLessThanOrEqual(GUARD.neutralFalseSmiles);
    expect(neutral.find((e) => e.kind === 'surprise')?.falseAlarms).toBe(0);
    expect(neutral.find((e) => e.kind === 'frown')?.falseAlarms).toBe(0);
  });
});
