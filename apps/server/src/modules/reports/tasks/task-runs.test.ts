import { describe, expect, it } from 'vitest';
import { markedResult, taskFigures, taskRuns, toImagePoint } from './task-runs.ts';

const R = 'research-1';

describe('task runs from an event log', () => {
  it('splits by task, counts clicks and misclicks up to the result, keeps the path and the time', () => {
    const runs = taskRuns(
      [
        { type: 'research_start', t: 1000, campaign_id: R },
        { type: 'task_shown', t: 2000, task: 0 },
        { type: 'click', t: 2500, x: 10, y: 10 },
        { type: 'click', t: 3000, x: 100, y: 50, target: 'point-0' },
        { type: 'task_step', t: 3000, task: 0, step: 0 },
        { type: 'click', t: 4500, x: 300, y: 60, target: 'final' },
        { type: 'task_result', t: 4500, task: 0, result: 'success' },
        { type: 'click', t: 5000, x: 1, y: 1 },
        { type: 'task_shown', t: 6000, task: 1 },
        { type: 'click', t: 6500, x: 5, y: 5 },
        { type: 'task_result', t: 66000, task: 1, result: 'fail' },
        { type: 'task_shown', t: 67000, task: 2 },
        { type: 'research_end', t: 68000, campaign_id: R },
        // Another research's tasks are not this one's.
        { type: 'research_start', t: 70000, campaign_id: 'other' },
        { type: 'task_shown', t: 71000, task: 0 },
      ],
      R,
    );
    expect(runs).toEqual([
      {
        task: 0,
        result: 'success',
        seconds: 2.5,
        clicks: 3,
        misclicks: 1,
        path: [0],
        points: [
          { x: 10, y: 10, hit: false },
          { x: 100, y: 50, hit: true },
          { x: 300, y: 60, hit: true },
        ],
      },
      { task: 1, result: 'fail', seconds: 60, clicks: 1, misclicks: 1, path: [], points: [{ x: 5, y: 5, hit: false }] },
      { task: 2, result: 'none', seconds: null, clicks: 0, misclicks: 0, path: [], points: [] },
    ]);
  });

  it('marks decide: accepted is a success, rejected and failed are fails, not marked keeps what was recorded', () => {
    expect(markedResult('fail', 'accepted')).toBe('success');
    expect(markedResult('success', 'rejected')).toBe('fail');
    expect(markedResult('none', 'failed')).toBe('fail');
    expect(markedResult('none', 'not_marked')).toBe('none');
  });

  it('figures per task: success share, mean and median time and clicks to success, misclicks, paths', () => {
    const run = (result: 'success' | 'fail' | 'none', seconds: number | null, clicks: number, path: number[]) => ({
      task: 0,
      result,
      seconds,
      clicks,
      misclicks: clicks - path.length,
      path,
      points: [],
      mark: 'not_marked' as const,
    });
    const f = taskFigures(
      [
        run('success', 2, 2, [0, 1]),
        run('success', 4, 3, [0, 1]),
        run('success', 9, 5, [1]),
        run('fail', 60, 4, [0]),
        run('none', null, 0, []),
      ],
      100,
    );
    expect(f).toMatchObject({ shown: 5, success: 3, fail: 1, none: 1, success_share: 0.6 });
    expect(f.time_to_success).toEqual({ mean: 5, median: 4 });
    expect(f.clicks_to_success).toBe(3.33);
    expect(f.misclicks).toBe(1.6);
    expect(f.paths[0]).toEqual({ path: [0, 1], count: 2 });
  });

  it('maps a screen click into the screenshot shown whole on the screen', () => {
    // A 1000 × 2000 screenshot on a 1280 × 800 screen: scale 0.4, 400 × 800 centred from x = 440.
    expect(toImagePoint({ x: 640, y: 400 }, { width: 1280, height: 800 }, { width: 1000, height: 2000 })).toEqual({
      x: 500,
      y: 1000,
    });
    expect(toImagePoint({ x: 100, y: 400 }, { width: 1280, height: 800 }, { width: 1000, height: 2000 })).toBeNull();
  });
});
