import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Task statistics of a website-prototype research (issue 13 item 4; spec: "Task result: success or fail. Marking:
 * not marked, accepted, rejected, failed"): per task what respondents did — from their event logs — and the
 * analyst's marking of each respondent's result.
 */
export const TASK_MARKS = ['not_marked', 'accepted', 'rejected', 'failed'] as const;
export type TaskMark = (typeof TASK_MARKS)[number];
export const TASK_RESULTS = ['success', 'fail', 'none'] as const;
export type TaskResult = (typeof TASK_RESULTS)[number];

/** One respondent's run of one task. */
export const taskRunSchema = z.object({
  session_id: z.uuid(),
  participant_id: z.string().nullable(),
  task: z.number().int(),
  /** What the prototype recorded: success (the final step), fail (time up or given up), none (left before either). */
  result: z.enum(TASK_RESULTS),
  /** Seconds from the task's start to its result. */
  seconds: z.number().nullable(),
  clicks: z.number().int(),
  /** Clicks that hit none of the task's points. */
  misclicks: z.number().int(),
  /** The task's steps (points) reached, in order. */
  path: z.array(z.number().int()),
  mark: z.enum(TASK_MARKS),
});
export type TaskRun = z.infer<typeof taskRunSchema>;

export const taskStatisticsSchema = z.object({
  task: z.number().int(),
  description: z.string(),
  /** The task's screenshot (click maps are drawn on it), its natural size. */
  media_id: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  shown: z.number().int(),
  /** After marking: accepted counts as a success, rejected and failed as a fail; not marked keeps the recorded result. */
  success: z.number().int(),
  fail: z.number().int(),
  none: z.number().int(),
  success_share: z.number().nullable(),
  time_to_success: z.object({ mean: z.number().nullable(), median: z.number().nullable() }),
  clicks_to_success: z.number().nullable(),
  misclicks: z.number().nullable(),
  /** The commonest paths (steps in order) with how many took each. */
  paths: z.array(z.object({ path: z.array(z.number().int()), count: z.number().int() })),
  /** Clicks on the screenshot, in its pixels (a click map), at most CLICKS_SHOWN. */
  clicks: z.array(z.object({ x: z.number(), y: z.number(), hit: z.boolean() })),
});
export type TaskStatistics = z.infer<typeof taskStatisticsSchema>;
export const CLICKS_SHOWN = 5000;

/** GET /api/cabinet/campaigns/{id}/task-statistics/ */
export const taskStatisticsOutput = z.object({
  tasks: z.array(taskStatisticsSchema),
  runs: z.array(taskRunSchema),
  /** Runs with a result that nobody has marked yet. */
  unmarked: z.number().int(),
  /** The research uses task statistics in its reports: a report waits until every run is marked. */
  used_in_reports: z.boolean(),
});
export type TaskStatisticsOutput = z.infer<typeof taskStatisticsOutput>;

/** PUT /api/cabinet/campaigns/{id}/task-marks/ */
export const TASK_MARKS_LIMIT = 1000;
export const taskMarksInput = z.strictObject({
  marks: z
    .array(
      z.strictObject({
        session_id: z.uuid(msg('validation.invalid')),
        task: z.number().int().min(0).max(1000),
        mark: z.enum(TASK_MARKS, msg('validation.choice')),
      }),
    )
    .min(1, msg('validation.required'))
    .max(TASK_MARKS_LIMIT, msg('validation.maxItems', { max: TASK_MARKS_LIMIT })),
});
export type TaskMarksInput = z.infer<typeof taskMarksInput>;
