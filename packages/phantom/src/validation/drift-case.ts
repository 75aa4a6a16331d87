/**
 * Drift phantoms (issue 31 item 4, decision 053): the gaze phantom's calibration, then three rounds of the 3 × 3 grid,
 * each followed by a 1 s checkpoint dot (the page's overlay), with the eyes drawn drifting from the research's start
 * (`Script.gazeDrift`) or not. Three runs per face: undrifted, drifted without the correction, drifted with it; the
 * goal: corrected within the undrifted error + 1% of the diagonal. Each face is drawn `GAZE_DRAWS` times (its noise
 * seeded differently) and judged on the median of its draws, as the gaze goal is (decisions 041, 077).
 */
import { DRIFT_CHECKPOINT_TIMING, VALIDATION_POINTS } from '@emolens/contracts';
import { parseScript } from '../script.ts';
import type { CaseResult, ValidationCase } from './cases.ts';
import { median } from './score.ts';
import { gridFixations, LAPTOP_SCREEN, planSession } from './session-plan.ts';
import { sessionScript } from './to-script.ts';

/** The drift drawn: ~1.2° a minute right and ~0.9° down at 60 cm (about what a respondent settling in shows). */
export const DRIFT_PER_MINUTE = { x: 150, y: 100 } as const;
export const DRIFT_ROUNDS = 3;
/** The page's overlay dot: shown this long, then a `video_time` logged as it goes (`planSession`). */
const CHECKPOINT_MS = DRIFT_CHECKPOINT_TIMING.overlayDotMs;
const SACCADE_MS = 50;

export type DriftArm = 'undrifted' | 'drifted, not corrected' | 'drifted, corrected';
export const DRIFT_ARMS: readonly DriftArm[] = ['undrifted', 'drifted, not corrected', 'drifted, corrected'];

/** Percentage points the corrected error may exceed the undrifted one by (issue 31, "Done when"). */
export const DRIFT_GOAL_POINTS = 1;

/** A drift case's condition: its arm, and its draw after the first. */
const driftCondition = (arm: DriftArm, seed: number) => (seed === 1 ? arm : `${arm}, draw ${seed}`);

export function driftCase(source: string, arm: DriftArm, seed = 1): ValidationCase {
  const grid = gridFixations(LAPTOP_SCREEN);
  const content: { t: number; x: number; y: number }[] = [];
  const checkpoints: { t: number; x: number; y: number }[] = [];
  let t = 0;
  for (let round = 0; round < DRIFT_ROUNDS; round++) {
    for (const key of grid.keys) content.push({ ...key, t: t + key.t });
    t += grid.durationMs;
    // The checkpoint dot at a validation dot's place, a different one each round.
    const [fx, fy] = VALIDATION_POINTS[round % VALIDATION_POINTS.length] as readonly [number, number];
    const dot = { x: Math.round(fx * LAPTOP_SCREEN.width), y: Math.round(fy * LAPTOP_SCREEN.height) };
    checkpoints.push({ t, ...dot });
    content.push({ t: t + SACCADE_MS, ...dot }, { t: t + CHECKPOINT_MS, ...dot });
    t += CHECKPOINT_MS;
  }
  const plan = planSession({ content, researchMs: t, checkpoints });
  const drifted = arm !== 'undrifted';
  const base = drifted ? 'gaze-drift' : 'gaze-drift-none';
  const script = parseScript({
    // Seed 1 keeps the name it always had; another draw gets its own recording.
    name: seed === 1 ? base : `${base}-seed${seed}`,
    description: `calibration, then ${DRIFT_ROUNDS} rounds of the 3 × 3 grid each followed by a 1 s checkpoint dot${drifted ? `; the eyes drift ${DRIFT_PER_MINUTE.x} px/min right and ${DRIFT_PER_MINUTE.y} px/min down from the research's start` : ''}`,
    source,
    seed,
    fps: 30,
    ...sessionScript(plan),
    gazeDrift: drifted
      ? { startMs: plan.research.start, xPerMinute: DRIFT_PER_MINUTE.x, yPerMinute: DRIFT_PER_MINUTE.y }
      : null,
  });
  return {
    kind: 'drift',
    condition: driftCondition(arm, seed),
    script,
    plan,
    ...(arm === 'drifted, not corrected' ? { correctDrift: false } : {}),
  };
}

/**
 * Per face: each arm's median gaze error (% of the diagonal) in each draw, the median of the draws, and whether the
 * corrected one's median meets the goal.
 */
export function driftRows(results: readonly CaseResult[]) {
  const drift = results.filter((r) => r.case.kind === 'drift');
  const sources = [...new Set(drift.map((r) => r.source))];
  const seeds = [...new Set(drift.map((r) => r.case.script.seed))].sort((a, b) => a - b);
  return sources.map((source) => {
    const of = (arm: DriftArm, seed: number) =>
      drift.find((r) => r.source === source && r.case.condition === driftCondition(arm, seed));
    const draws = seeds
      .map((seed) => {
        const error = (arm: DriftArm) => of(arm, seed)?.gaze?.overall.medianPercent ?? null;
        return {
          seed,
          undrifted: error('undrifted'),
          uncorrected: error('drifted, not corrected'),
          corrected: error('drifted, corrected'),
          measuredDriftPx: of('drifted, corrected', seed)?.drift?.meanPx ?? null,
        };
      })
      .filter((d) => d.undrifted !== null || d.uncorrected !== null || d.corrected !== null);
    const mid = (pick: (d: (typeof draws)[number]) => number | null) => {
      const values = draws.map(pick).filter((v): v is number => v !== null);
      return values.length ? median(values) : null;
    };
    const undrifted = mid((d) => d.undrifted);
    const corrected = mid((d) => d.corrected);
    return {
      source,
      draws,
      undrifted,
      uncorrected: mid((d) => d.uncorrected),
      corrected,
      measuredDriftPx: mid((d) => d.measuredDriftPx),
      ok: undrifted !== null && corrected !== null ? corrected <= undrifted + DRIFT_GOAL_POINTS : null,
    };
  });
}

const f = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);

const points = (corrected: number | null, undrifted: number | null) =>
  corrected !== null && undrifted !== null
    ? `${corrected - undrifted >= 0 ? '+' : ''}${f(corrected - undrifted)}`
    : '—';

/** The goal row of docs/validation.md's summary. */
export function driftGoal(results: readonly CaseResult[]) {
  const rows = driftRows(results);
  const draws = Math.max(0, ...rows.map((r) => r.draws.length));
  return {
    goal: `injected drift corrected to within the undrifted error + ${DRIFT_GOAL_POINTS}% of the diagonal (each face${draws > 1 ? `, the median of its ${draws} draws` : ''})`,
    figure: rows.length
      ? rows
          .map((r) => `${r.source}: ${f(r.uncorrected)}% → ${f(r.corrected)}% (undrifted ${f(r.undrifted)}%)`)
          .join('; ')
      : 'not run',
    ok: rows.length ? rows.every((r) => r.ok === true) : null,
  };
}

/** docs/validation.md's drift section (empty without drift phantoms). */
export function driftSection(results: readonly CaseResult[]): string[] {
  const rows = driftRows(results);
  if (!rows.length) return [];
  const several = rows.some((r) => r.draws.length > 1);
  return [
    '',
    '## Drift',
    '',
    `Each face: the calibration, then ${DRIFT_ROUNDS} rounds of the 3 × 3 grid, each round followed by a 1 s checkpoint`,
    `dot (the page's overlay). The drifted recording's eyes are drawn turned toward the target plus an offset growing`,
    `${DRIFT_PER_MINUTE.x} px a minute right and ${DRIFT_PER_MINUTE.y} px down from the research's start, while the truth`,
    'keeps the target: a calibration going stale, whatever the cause. The engine measures each checkpoint, smooths the',
    "checkpoints together as readings of a random walk with the gaze's own error at a dot (decision 074) and takes the",
    'drift off the gaze between them (decision 053). Median error over the research window, % of the diagonal.',
    ...(several
      ? [
          'Each face is drawn more than once (its noise seeded differently) and judged on the median of its draws, as the',
          "gaze phantoms are: a checkpoint is one fixation, and one draw's noise moves its reading by tens of pixels",
          '(decision 077).',
        ]
      : []),
    '',
    `| face | undrifted | drifted, not corrected | drifted, corrected | corrected − undrifted, points | offset the checkpoints measured (mean) | goal (≤ +${DRIFT_GOAL_POINTS}) |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.flatMap((r) => [
      ...(r.draws.length > 1
        ? r.draws.map(
            (d) =>
              `| ${r.source}, draw ${d.seed} | ${f(d.undrifted)}% | ${f(d.uncorrected)}% | ${f(d.corrected)}% | ${points(d.corrected, d.undrifted)} | ${f(d.measuredDriftPx, 0)} px |  |`,
          )
        : []),
      `| ${r.draws.length > 1 ? `**${r.source}, median of the draws**` : r.source} | ${f(r.undrifted)}% | ${f(r.uncorrected)}% | ${f(r.corrected)}% | ${points(r.corrected, r.undrifted)} | ${f(r.measuredDriftPx, 0)} px | ${r.ok === null ? '—' : r.ok ? 'met' : '**not met**'} |`,
    ]),
  ];
}
