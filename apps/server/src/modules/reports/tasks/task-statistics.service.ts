import type { MessageRef, TaskMark, TaskRun, TaskStatisticsOutput, taskMarksInput, WebTask } from '@emolens/contracts';
import type { z } from 'zod';
import type { User } from '../../../db/types.ts';
import { AppError } from '../../../http/errors.ts';
import { requireAccess } from '../../access/access.ts';
import type { ReportsDeps } from '../reports.service.ts';
import { type LoggedEvent, type MarkedRun, taskRuns, tasksOf } from './task-runs.ts';

/**
 * Task statistics of a website-prototype research and the analyst's marking (issue 13 item 4): runs read from the
 * respondents' event logs (`task-runs.ts`), marks from `task_marks`. Reports of a research that uses task
 * statistics (`useTasksStatsInReport`) wait until every run is marked ('Unable to generate report due to
 * unmarked tasks').
 */
type TaskDeps = Pick<ReportsDeps, 'access' | 'reports'>;

const markKey = (sessionId: string, task: number) => `${sessionId}:${task}`;

/** Every run of the research's tasks with its mark; `only`: of these sessions (a report's respondents). */
export async function researchRuns(deps: TaskDeps, researchId: string, only: readonly string[] | null = null) {
  const research = await deps.reports.research(researchId);
  if (research?.content_type !== 'site') return { research, tasks: [] as WebTask[], runs: [] };
  const tasks = (research.settings.webResourceScenario ?? []) as WebTask[];
  const [sessions, marks] = await Promise.all([
    deps.reports.taskSessions(researchId, only),
    deps.reports.taskMarks(researchId),
  ]);
  const markOf = new Map(marks.map((m) => [markKey(m.session_id, m.task), m.mark as TaskMark]));
  const runs: MarkedRun[] = sessions.flatMap((s) =>
    taskRuns((s.events ?? []) as LoggedEvent[], researchId).map((run) => ({
      ...run,
      session_id: s.session_id,
      participant_id: s.participant_id,
      screen: s.screen_width && s.screen_height ? { width: s.screen_width, height: s.screen_height } : null,
      mark: markOf.get(markKey(s.session_id, run.task)) ?? ('not_marked' as TaskMark),
    })),
  );
  return { research, tasks, runs };
}

type ResearchRun = MarkedRun;

/** Runs nobody has marked yet, when the research's reports use task statistics (0 otherwise). */
export async function unmarkedForReports(deps: TaskDeps, researchId: string): Promise<number> {
  const { research, runs } = await researchRuns(deps, researchId);
  if (research?.settings.useTasksStatsInReport !== true) return 0;
  return runs.filter((r) => r.mark === 'not_marked').length;
}

const runOut = (r: ResearchRun): TaskRun => ({
  session_id: r.session_id,
  participant_id: r.participant_id,
  task: r.task,
  result: r.result,
  seconds: r.seconds,
  clicks: r.clicks,
  misclicks: r.misclicks,
  path: r.path,
  mark: r.mark,
});

/** The answer of both calls: per task figures, every run, how many are unmarked. */
async function statisticsOf(
  deps: TaskDeps,
  researchId: string,
  {
    research,
    tasks,
    runs,
  }: {
    research: Awaited<ReturnType<typeof researchRuns>>['research'];
    tasks: readonly WebTask[];
    runs: readonly ResearchRun[];
  },
): Promise<TaskStatisticsOutput> {
  const media = new Map((await deps.reports.media([researchId])).map((m) => [m.id, m]));
  return {
    tasks: tasksOf(tasks, runs, media),
    runs: runs.map(runOut),
    unmarked: runs.filter((r) => r.mark === 'not_marked').length,
    used_in_reports: research?.settings.useTasksStatsInReport === true,
  };
}

/** GET /api/cabinet/campaigns/{id}/task-statistics/ */
export async function taskStatistics(deps: TaskDeps, user: User, researchId: string): Promise<TaskStatisticsOutput> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  return statisticsOf(deps, researchId, await researchRuns(deps, researchId));
}

/**
 * PUT /api/cabinet/campaigns/{id}/task-marks/ — marks of runs the research has; an unknown one is refused. The answer
 * is the statistics with the new marks, from the runs already read (the event logs are not read twice).
 */
export async function setTaskMarks(
  deps: TaskDeps,
  user: User,
  researchId: string,
  { marks }: z.infer<typeof taskMarksInput>,
): Promise<TaskStatisticsOutput> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const research = await researchRuns(deps, researchId);
  const known = new Set(research.runs.map((r) => markKey(r.session_id, r.task)));
  const fields: Record<string, MessageRef> = {};
  marks.forEach((m, i) => {
    if (!known.has(markKey(m.session_id, m.task))) fields[`marks.${i}.task`] = { key: 'validation.choice' };
  });
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
  await deps.reports.setTaskMarks(researchId, user.id, marks);
  const marked = new Map(marks.map((m) => [markKey(m.session_id, m.task), m.mark]));
  const runs = research.runs.map((r) => ({ ...r, mark: marked.get(markKey(r.session_id, r.task)) ?? r.mark }));
  return statisticsOf(deps, researchId, { ...research, runs });
}
