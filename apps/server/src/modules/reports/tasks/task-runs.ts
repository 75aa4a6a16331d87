import { CLICKS_SHOWN, type TaskMark, type TaskResult, type TaskStatistics, type WebTask } from '@emolens/contracts';

/**
 * Website-prototype tasks from respondents' event logs (issue 13 item 4), pure. A run of a task is everything from
 * its `task_shown` to the next task's or the research's end: the clicks (a click with a target hit one of the
 * task's points or its final point; one without hit nothing — a misclick), the steps reached in order (the path)
 * and the `task_result`. Clicks and time count up to the result.
 */
export interface LoggedEvent {
  type: string;
  t: number;
  task?: number;
  step?: number;
  result?: 'success' | 'fail';
  x?: number;
  y?: number;
  target?: string;
  campaign_id?: string;
}

export interface Run {
  task: number;
  result: TaskResult;
  seconds: number | null;
  clicks: number;
  misclicks: number;
  path: number[];
  /** Screen pixels. */
  points: { x: number; y: number; hit: boolean }[];
}

/** A run of one of the research's respondents, with the analyst's mark and the screen it was made on. */
export interface MarkedRun extends Run {
  session_id: string;
  participant_id: string | null;
  screen: { width: number; height: number } | null;
  mark: TaskMark;
}

/** The runs of one session in the research (`researchId`'s research_start … research_end), in order. */
export function taskRuns(events: readonly LoggedEvent[], researchId: string): Run[] {
  const sorted = [...events].sort((a, b) => a.t - b.t);
  const runs: (Run & { shownAt: number; done: boolean })[] = [];
  let inside = false;
  for (const e of sorted) {
    if (e.type === 'research_start') inside = e.campaign_id === researchId;
    if (!inside) continue;
    if (e.type === 'research_end') {
      inside = false;
      continue;
    }
    if (e.type === 'task_shown' && typeof e.task === 'number') {
      runs.push({
        task: e.task,
        result: 'none',
        seconds: null,
        clicks: 0,
        misclicks: 0,
        path: [],
        points: [],
        shownAt: e.t,
        done: false,
      });
      continue;
    }
    const run = runs.at(-1);
    if (!run || run.done) continue;
    if (e.type === 'click') {
      const hit = typeof e.target === 'string' && e.target !== 'figma';
      run.clicks += 1;
      if (!hit && e.target !== 'figma') run.misclicks += 1;
      if (typeof e.x === 'number' && typeof e.y === 'number') run.points.push({ x: e.x, y: e.y, hit });
    } else if (e.type === 'task_step' && e.task === run.task && typeof e.step === 'number') {
      run.path.push(e.step);
    } else if (e.type === 'task_result' && e.task === run.task && e.result) {
      run.result = e.result;
      run.seconds = Math.round((e.t - run.shownAt) / 10) / 100;
      run.done = true;
    }
  }
  return runs.map(({ shownAt: _s, done: _d, ...run }) => run);
}

/** The result that counts once the analyst marked it: accepted is a success, rejected and failed are fails. */
export function markedResult(result: TaskResult, mark: TaskMark): TaskResult {
  if (mark === 'accepted') return 'success';
  if (mark === 'rejected' || mark === 'failed') return 'fail';
  return result;
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
const round = (v: number | null, digits = 2) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

/** One task's figures over its runs (each with its mark); clicks already in the screenshot's pixels. */
export function taskFigures(
  runs: readonly (Run & { mark: TaskMark })[],
  clicksShown: number,
): Omit<TaskStatistics, 'task' | 'description' | 'media_id' | 'width' | 'height'> {
  const results = runs.map((r) => markedResult(r.result, r.mark));
  const successes = runs.filter((_, i) => results[i] === 'success');
  const timed = successes.map((r) => r.seconds).filter((s): s is number => s !== null);
  const paths = new Map<string, { path: number[]; count: number }>();
  for (const r of runs) {
    const key = r.path.join('>');
    const entry = paths.get(key) ?? { path: r.path, count: 0 };
    entry.count += 1;
    paths.set(key, entry);
  }
  const decided = results.filter((r) => r !== 'none').length;
  return {
    shown: runs.length,
    success: successes.length,
    fail: results.filter((r) => r === 'fail').length,
    none: results.filter((r) => r === 'none').length,
    success_share: decided ? round(successes.length / runs.length, 4) : null,
    time_to_success: { mean: round(mean(timed)), median: round(median(timed)) },
    clicks_to_success: round(mean(successes.map((r) => r.clicks))),
    misclicks: round(mean(runs.map((r) => r.misclicks))),
    paths: [...paths.values()].sort((a, b) => b.count - a.count || a.path.length - b.path.length).slice(0, 5),
    clicks: runs.flatMap((r) => r.points).slice(0, clicksShown),
  };
}

/**
 * A click on the screen in the screenshot's pixels: the screenshot is shown whole ("contain") in the respondent's
 * screen, so the screen point maps through that box; a click outside the picture is left out.
 */
export function toImagePoint(
  point: { x: number; y: number },
  screen: { width: number; height: number },
  image: { width: number; height: number },
): { x: number; y: number } | null {
  const scale = Math.min(screen.width / image.width, screen.height / image.height);
  const left = (screen.width - image.width * scale) / 2;
  const top = (screen.height - image.height * scale) / 2;
  const x = (point.x - left) / scale;
  const y = (point.y - top) / scale;
  return x >= 0 && x <= image.width && y >= 0 && y <= image.height ? { x: Math.round(x), y: Math.round(y) } : null;
}

/** Per task figures over runs, clicks mapped into the task's screenshot. */
export function tasksOf(
  tasks: readonly WebTask[],
  runs: readonly MarkedRun[],
  media: ReadonlyMap<string, { width: number | null; height: number | null }>,
) {
  return tasks.map((task, index) => {
    const image = task.image ? media.get(task.image) : undefined;
    const size = image?.width && image.height ? { width: image.width, height: image.height } : null;
    const mine: (Run & { mark: TaskMark })[] = runs
      .filter((r) => r.task === index)
      .map((r) => ({
        ...r,
        points:
          size && r.screen
            ? r.points.flatMap((p) => {
                const at = toImagePoint(p, r.screen as { width: number; height: number }, size);
                return at ? [{ ...at, hit: p.hit }] : [];
              })
            : [],
      }));
    return {
      task: index,
      description: task.description,
      media_id: image ? (task.image ?? null) : null,
      width: size?.width ?? null,
      height: size?.height ?? null,
      ...taskFigures(mine, CLICKS_SHOWN),
    };
  });
}
