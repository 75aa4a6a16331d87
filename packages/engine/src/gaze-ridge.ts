/** Ridge regression of the gaze model, with its leave-one-dot-position-out cross-validation (see `gaze.ts`). */
import type { CalibrationSample } from './gaze-calibration.ts';
import type { ScreenPoint } from './types.ts';

export interface RidgeFit {
  mean: number[];
  scale: number[];
  weightsX: number[];
  weightsY: number[];
}

/** Which features each axis uses, and the penalty. */
export interface RidgeSpec {
  lambda: number;
  x: readonly number[];
  y: readonly number[];
}

export function featuresVary(rows: number[][]): boolean {
  return standardisation(rows).varying.some(Boolean);
}

/**
 * Column means and population SDs. A (near-)constant column gets scale 1, so its z is 0 and its weight stays 0
 * rather than dividing by zero.
 */
export function standardisation(rows: number[][]): { mean: number[]; scale: number[]; varying: boolean[] } {
  const n = rows.length;
  const p = rows[0]?.length ?? 0;
  const mean = new Array<number>(p).fill(0);
  const variance = new Array<number>(p).fill(0);
  for (const r of rows) for (let j = 0; j < p; j++) mean[j] = (mean[j] as number) + (r[j] ?? 0) / n;
  for (const r of rows) {
    for (let j = 0; j < p; j++) {
      const d = (r[j] ?? 0) - (mean[j] as number);
      variance[j] = (variance[j] as number) + (d * d) / n;
    }
  }
  const varying = variance.map((v, j) => Math.sqrt(v) > 1e-9 * Math.max(1, Math.abs(mean[j] as number)));
  const scale = variance.map((v, j) => (varying[j] ? Math.sqrt(v) : 1));
  return { mean, scale, varying };
}

export function standardise(rows: number[][], mean: number[], scale: number[]): number[][] {
  return rows.map((r) => r.map((v, j) => (v - (mean[j] as number)) / (scale[j] as number)));
}

/**
 * Ridge weights of one axis on standardised rows `z`, using the columns in `columns` only: solves
 * (Z_Sᵀ Z_S / n + λI) w = Z_Sᵀ (t − t̄) / n. Returns [t̄, w_1, …, w_p] over all p columns (0 outside `columns`),
 * or null when the system is not positive definite.
 */
export function ridgeAxis(z: number[][], t: number[], columns: readonly number[], lambda: number): number[] | null {
  const n = z.length;
  const p = z[0]?.length ?? 0;
  const k = columns.length;
  if (n === 0) return null;
  const mean = t.reduce((a, b) => a + b, 0) / n;
  const gram: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const rhs = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const zi = z[i] as number[];
    const ti = (t[i] as number) - mean;
    for (let a = 0; a < k; a++) {
      const za = zi[columns[a] as number] as number;
      rhs[a] = (rhs[a] as number) + (za * ti) / n;
      const row = gram[a] as number[];
      for (let b = 0; b <= a; b++) row[b] = (row[b] as number) + (za * (zi[columns[b] as number] as number)) / n;
    }
  }
  for (let a = 0; a < k; a++) {
    const row = gram[a] as number[];
    row[a] = (row[a] as number) + lambda;
    for (let b = 0; b < a; b++) (gram[b] as number[])[a] = row[b] as number;
  }
  const factor = cholesky(gram);
  if (!factor) return null;
  const w = choleskySolve(factor, rhs);
  if (!w.every(Number.isFinite)) return null;
  const weights = new Array<number>(p + 1).fill(0);
  weights[0] = mean;
  columns.forEach((column, a) => {
    weights[column + 1] = w[a] as number;
  });
  return weights;
}

export function fitRidge(rows: number[][], targets: ScreenPoint[], spec: RidgeSpec): RidgeFit | null {
  const { mean, scale } = standardisation(rows);
  const z = standardise(rows, mean, scale);
  const weightsX = ridgeAxis(
    z,
    targets.map((t) => t.x),
    spec.x,
    spec.lambda,
  );
  const weightsY = ridgeAxis(
    z,
    targets.map((t) => t.y),
    spec.y,
    spec.lambda,
  );
  return weightsX && weightsY ? { mean, scale, weightsX, weightsY } : null;
}

/** Lower-triangular L with A = L·Lᵀ, or null when A is not (numerically) positive definite. */
export function cholesky(a: number[][]): number[][] | null {
  const p = a.length;
  const maxDiag = Math.max(0, ...a.map((row, i) => Math.abs(row[i] ?? 0)));
  const tolerance = 1e-12 * Math.max(maxDiag, Number.MIN_VALUE);
  const l: number[][] = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = 0; i < p; i++) {
    const li = l[i] as number[];
    for (let j = 0; j <= i; j++) {
      const lj = l[j] as number[];
      let sum = (a[i] as number[])[j] ?? 0;
      for (let k = 0; k < j; k++) sum -= (li[k] as number) * (lj[k] as number);
      if (i === j) {
        if (!(sum > tolerance)) return null;
        li[i] = Math.sqrt(sum);
      } else {
        li[j] = sum / (lj[j] as number);
      }
    }
  }
  return l;
}

/** Solves L·Lᵀ·x = b by forward then backward substitution. */
export function choleskySolve(l: number[][], b: number[]): number[] {
  const p = l.length;
  const y = new Array<number>(p).fill(0);
  for (let i = 0; i < p; i++) {
    let sum = b[i] ?? 0;
    for (let k = 0; k < i; k++) sum -= ((l[i] as number[])[k] as number) * (y[k] as number);
    y[i] = sum / ((l[i] as number[])[i] as number);
  }
  const x = new Array<number>(p).fill(0);
  for (let i = p - 1; i >= 0; i--) {
    let sum = y[i] as number;
    for (let k = i + 1; k < p; k++) sum -= ((l[k] as number[])[i] as number) * (x[k] as number);
    x[i] = sum / ((l[i] as number[])[i] as number);
  }
  return x;
}

/** Mean over samples of the Euclidean distance between prediction and target. */
export function meanError(samples: CalibrationSample[], predict: (features: number[]) => ScreenPoint): number {
  let sum = 0;
  for (const s of samples) {
    const p = predict(s.features);
    sum += Math.hypot(p.x - s.target.x, p.y - s.target.y);
  }
  return sum / samples.length;
}

export interface ModelChoice extends RidgeSpec {
  /** Cross-validated RMS Euclidean error of this choice, and of always guessing the other dots' mean position. */
  rmsError: number;
  baselineRmsError: number;
}

/**
 * Leave-one-dot-position-out cross-validation: each training position's frames are predicted by models fitted
 * (standardisation included) on the other positions, for every λ and every candidate set of each axis. For each
 * λ, each axis takes its set with the smallest summed squared error; the λ with the smallest x + y total wins.
 * Ties go to the simpler choice (earlier set, larger λ). Null when no λ solves every fold.
 */
export function chooseModel(
  training: CalibrationSample[],
  candidates: { x: readonly (readonly number[])[]; y: readonly (readonly number[])[] },
  lambdas: readonly number[],
): ModelChoice | null {
  const groups = new Map<string, CalibrationSample[]>();
  for (const s of training) {
    const key = s.group;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  const sorted = [...lambdas].sort((a, b) => a - b);
  // sse[axis][lambda][set]: summed squared held-out error.
  const sse = {
    x: sorted.map(() => candidates.x.map(() => 0)),
    y: sorted.map(() => candidates.y.map(() => 0)),
  };
  let baseline = 0;
  for (const [key, held] of groups) {
    const rest = training.filter((s) => s.group !== key);
    if (rest.length === 0) return null;
    const { mean, scale } = standardisation(rest.map((s) => s.features));
    const zRest = standardise(
      rest.map((s) => s.features),
      mean,
      scale,
    );
    const zHeld = standardise(
      held.map((s) => s.features),
      mean,
      scale,
    );
    const centre = {
      x: rest.reduce((acc, s) => acc + s.target.x, 0) / rest.length,
      y: rest.reduce((acc, s) => acc + s.target.y, 0) / rest.length,
    };
    for (const s of held) baseline += (s.target.x - centre.x) ** 2 + (s.target.y - centre.y) ** 2;
    for (const axis of ['x', 'y'] as const) {
      const targets = rest.map((s) => s.target[axis]);
      sorted.forEach((lambda, l) => {
        candidates[axis].forEach((columns, c) => {
          const row = sse[axis][l] as number[];
          const weights = ridgeAxis(zRest, targets, columns, lambda);
          if (!weights) {
            row[c] = Number.POSITIVE_INFINITY;
            return;
          }
          held.forEach((s, i) => {
            const zi = zHeld[i] as number[];
            let estimate = weights[0] as number;
            for (const j of columns) estimate += (weights[j + 1] as number) * (zi[j] as number);
            row[c] = (row[c] as number) + (estimate - s.target[axis]) ** 2;
          });
        });
      });
    }
  }
  const bestSet = (errors: number[]) =>
    errors.reduce((best, error, index) => (error < (errors[best] as number) ? index : best), 0);
  let choice: ModelChoice | null = null;
  let bestTotal = Number.POSITIVE_INFINITY;
  sorted.forEach((lambda, l) => {
    const ex = sse.x[l] as number[];
    const ey = sse.y[l] as number[];
    const cx = bestSet(ex);
    const cy = bestSet(ey);
    const total = (ex[cx] as number) + (ey[cy] as number);
    if (Number.isFinite(total) && total <= bestTotal) {
      bestTotal = total;
      choice = {
        lambda,
        x: candidates.x[cx] as readonly number[],
        y: candidates.y[cy] as readonly number[],
        rmsError: Math.sqrt(total / training.length),
        baselineRmsError: Math.sqrt(baseline / training.length),
      };
    }
  });
  return choice;
}
