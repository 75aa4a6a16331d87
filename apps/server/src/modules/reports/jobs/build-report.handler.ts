import { LANGUAGES, type Language, type ReportSegment, textIn } from '@emolens/contracts';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { isWholeSample } from '../../benchmarks/key-metrics.ts';
import { exclusion, type Segment } from '../build/build.ts';
import { buildInThread } from '../build/build-thread.ts';
import { restingHappyScores } from '../build/current-digests.ts';
import { itemsOf, scalesOnto, withDrawnAreas } from '../build/items.ts';
import { researchRuns } from '../tasks/task-statistics.service.ts';

/**
 * The report build job: reads what the build needs — the definition of the generation it was sent for, the researches
 * pooled, their media and sessions, the segments, the website tasks' runs, the benchmark base — has the build's thread
 * make the whole snapshot (`build/build-thread.ts`), writes it, and publishes `report.built` (or `report.failed`) once
 * written: notifications and self-service subscribe to them.
 */

/** The same text in every language (a research's title). */
const inEvery = (text: string) => Object.fromEntries(LANGUAGES.map((l) => [l, text])) as Record<Language, string>;

/** Which segment a session is in: its sex, its research, or its option of a single-choice question. */
async function segmenter(
  ctx: AppContext,
  pool: readonly { id: string; title: string }[],
  segment: ReportSegment,
): Promise<(s: { session_id: string; campaign_id: string; sex: string | null }) => Segment | null> {
  if (segment.by === 'sex') return (s) => (s.sex ? { key: s.sex, labels: null } : null);
  if (segment.by === 'research') {
    const titles = new Map(pool.map((r) => [r.id, r.title]));
    return (s) => ({ key: s.campaign_id, labels: inEvery(titles.get(s.campaign_id) ?? '') });
  }
  if (segment.by !== 'answer') return () => null;
  const survey = await ctx.deps.surveys.find(segment.survey_id);
  const question = survey?.questions.find((q) => q.id === segment.question);
  const labels = new Map(
    (question?.options ?? []).map((o) => [
      o.id,
      Object.fromEntries(LANGUAGES.map((l) => [l, textIn(o.text, l)])) as Record<Language, string>,
    ]),
  );
  const answers = await ctx.deps.reports.answersTo(
    pool.map((r) => r.id),
    segment.survey_id,
    segment.question,
  );
  const chosen = new Map<string, string>();
  for (const a of answers) {
    const choice = (a.answer as { choices?: unknown[] } | null)?.choices?.[0];
    if (typeof choice === 'string' && labels.has(choice)) chosen.set(a.session_id, choice);
  }
  return (s) => {
    const key = chosen.get(s.session_id);
    return key ? { key, labels: labels.get(key) ?? null } : null;
  };
}

export async function handle(
  payload: { report_id: string; generation: number },
  ctx: AppContext,
  attempt: JobAttempt,
): Promise<void> {
  const repo = ctx.deps.reports;
  const { report_id: id, generation } = payload;
  const def = await repo.claim(id, generation);
  if (!def) return;
  const log = ctx.log.child({ report: id, generation });
  // Published after the write, not inside its transaction: on the embedded PGlite a publish inside a Kysely
  // transaction waits for that transaction's own connection (measured: it never returns).
  const fail = async (errorKey: string) => {
    if (await repo.fail(id, generation, errorKey)) {
      await ctx.queue.publish('report.failed', { report_id: id, generation });
    }
  };
  try {
    const started = performance.now();
    // The researches pooled (decision 019): the report's own first; one deleted since drops out.
    const found = await repo.researches([def.campaign_id, ...def.researches]);
    const pool = [def.campaign_id, ...def.researches].flatMap((rid) => found.filter((r) => r.id === rid));
    const ids = pool.map((r) => r.id);
    const [media, rows, segmentOf, base] = await Promise.all([
      repo.media(ids),
      repo.sessions(ids, def.filters),
      segmenter(ctx, pool, def.segment),
      // Benchmarks (decision 016): the research among the base of its subtype.
      def.benchmark && def.subtype ? ctx.deps.benchmarks.base(def.content_type, def.subtype, ids) : null,
    ]);
    const mediaOf = (researchId: string) => media.filter((m) => m.campaign_id === researchId);
    const { timeline, items: contentItems } = itemsOf(def, mediaOf(def.campaign_id));
    const items = withDrawnAreas(contentItems, def.areas);
    // Another research's gaze is in its own items' pixels: scaled onto the report's (its own research's) items.
    const scales = new Map(
      pool.slice(1).map((r) => [r.id, scalesOnto(items, itemsOf(r, mediaOf(r.id)).items)] as const),
    );
    const restingHappy = await restingHappyScores(repo, rows);
    const sessions = rows.map(({ digest_head: _head, ...session }) => {
      const scale = scales.get(session.campaign_id);
      return { ...session, scale: scale ? [...scale] : null, segment: segmentOf(session) };
    });
    // Whom the report counts, by the build's own rule: the quality, accuracy and happy filters may leave nobody.
    const included = sessions.filter((s) => exclusion(s, restingHappy.get(s.result_id) ?? null, def.filters) === null);
    if (included.length === 0) {
      await fail('report.noProcesses');
      return;
    }
    // Website prototypes: the tasks' runs of the included respondents, marks applied.
    const includedIds = included.map((s) => s.session_id);
    const researched = await Promise.all(ids.map((rid) => researchRuns(ctx.deps, rid, includedIds)));
    // A whole-sample shift report joins the research's base; a pooled report is not one research's sample.
    const wholeSample = def.type === 'shift' && isWholeSample(def.filters) && ids.length === 1;
    // The digests' read, the arithmetic and the JSON text in a worker thread: in the embedded mode this job shares the
    // API's process. On PostgreSQL the thread reads the digests over its own connection; the embedded database lives
    // in this thread, so the job runs the COPY and hands its bytes over.
    const query = repo.digestsQuery(sessions.map((s) => s.result_id));
    const { connectionString } = ctx.database;
    const digests = connectionString ? { connectionString, query } : { copy: await ctx.database.copyOut(query) };
    const built = await buildInThread(
      {
        type: def.type,
        step: def.step,
        filters: def.filters,
        fixations: def.fixations,
        timeline,
        items,
        sessions,
        digests,
        tasks: {
          tasks: researched[0]?.tasks ?? [],
          runs: researched.flatMap((r) => r.runs),
          media: mediaOf(def.campaign_id),
        },
        researches: pool.map((r) => ({ id: r.id, title: r.title })),
        benchmark: base ? { research: def, base, wholeSample } : null,
      },
      async (fraction) => {
        await repo.progress(id, generation, fraction * 100);
      },
    );
    const { metrics, respondents } = built;
    const written = await repo.finish(id, generation, built.text, respondents);
    if (written && wholeSample && metrics) {
      await ctx.deps.benchmarks.saveResearchNorm(def.campaign_id, id, respondents, metrics);
    }
    if (written) await ctx.queue.publish('report.built', { report_id: id, generation });
    log.info({ written, respondents, ms: Math.round(performance.now() - started) }, 'report built');
  } catch (err) {
    log.error({ err }, 'report build failed');
    if (!isFinalAttempt(attempt)) throw err;
    await fail('report.lastFailed');
  }
}
