import {
  type ContentType,
  LANGUAGES,
  type Language,
  type PictureGallery,
  type ReportAreaInput,
  type ReportSegment,
  type ShelfDisplay,
  textIn,
  type WebTask,
} from '@emolens/contracts';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { isWholeSample } from '../../benchmarks/key-metrics.ts';
import { notifyReportBuild } from '../../notifications/notifications.service.ts';
import {
  isCurrentDigest,
  type ReportDigest,
  readDigest,
  reportDigest,
  restingHappyOf,
} from '../../processing/digest.ts';
import { type BuildItem, exclusion, type Segment } from '../build/build.ts';
import { buildInThread } from '../build/build-thread.ts';
import type { ReportsRepository } from '../reports.repository.ts';
import { researchRuns, tasksOf } from '../tasks/task-statistics.service.ts';

type Media = Awaited<ReturnType<ReportsRepository['media']>>[number];

/** The areas drawn on the report, added to their items (in item pixels), numbered after the item's zones. */
export function withDrawnAreas(items: BuildItem[], drawn: readonly ReportAreaInput[]): BuildItem[] {
  return items.map((item) => {
    const { width, height } = item;
    if (!width || !height) return item;
    const mine = drawn.filter((a) => a.item === item.index);
    return {
      ...item,
      areas: [
        ...item.areas,
        ...mine.map((a, k) => ({
          id: String(item.areas.length + k + 1),
          name: a.name,
          source: 'drawn' as const,
          x: a.x * width,
          y: a.y * height,
          width: a.width * width,
          height: a.height * height,
          from: a.from,
          to: a.to,
        })),
      ],
    };
  });
}

/** The report's content items, by the index the engine's series use (decision 006's content, in its order). */
export function itemsOf(
  content: {
    content_type: ContentType;
    settings: Record<string, unknown>;
    picture_gallery: PictureGallery;
    shelf_content_scenario: ShelfDisplay[];
  },
  media: Media[],
): { timeline: string; items: BuildItem[] } {
  const byId = new Map(media.map((m) => [m.id, m]));
  const image = (
    index: number,
    id: string | undefined,
    label: string,
    zones: ShelfDisplay['zones'] = [],
  ): BuildItem => {
    const m = id ? byId.get(id) : undefined;
    const width = m?.width ?? null;
    const height = m?.height ?? null;
    return {
      index,
      label,
      media_id: m ? m.id : null,
      width,
      height,
      seconds: null,
      // Zones are fractions of the image: in its pixels once its size is known.
      areas:
        width && height
          ? zones.map((z, i) => ({
              id: String(i + 1),
              name: z.name,
              source: 'zone' as const,
              x: z.x * width,
              y: z.y * height,
              width: z.width * width,
              height: z.height * height,
              from: null,
              to: null,
            }))
          : [],
    };
  };
  switch (content.content_type) {
    case 'video': {
      const video = media.find((m) => m.kind === 'video' && m.role === 'content');
      return {
        timeline: 'video',
        items: [
          {
            index: 0,
            label: video?.filename ?? '',
            media_id: video?.id ?? null,
            width: video?.width ?? null,
            height: video?.height ?? null,
            seconds: video?.duration_seconds ?? null,
            areas: [],
          },
        ],
      };
    }
    case 'pictures': {
      // The respondent's player shows the gallery's pictures that exist, in order: that position is the index.
      const shown = content.picture_gallery.items.filter((item) => byId.has(item.image));
      return {
        timeline: 'pictures',
        items: shown.map((item, i) => image(i, item.image, byId.get(item.image)?.filename ?? '')),
      };
    }
    case 'shelf':
      return {
        timeline: 'shelf',
        items: content.shelf_content_scenario.map((display, i) => image(i, display.image, display.name, display.zones)),
      };
    case 'site': {
      const tasks = (content.settings.webResourceScenario ?? []) as WebTask[];
      return {
        timeline: 'site',
        items: tasks.map((task, i) => image(i, task.image ?? undefined, task.description)),
      };
    }
    default:
      return {
        timeline: 'contentless',
        items: [
          {
            index: 0,
            label: '',
            media_id: null,
            width: null,
            height: null,
            seconds: Number(content.settings.contentVideoDuration ?? 0) || null,
            areas: [],
          },
        ],
      };
  }
}

/** The same text in every language (a research's title). */
const inEvery = (text: string) => Object.fromEntries(LANGUAGES.map((l) => [l, text])) as Record<Language, string>;

/**
 * Per item index, how another research's item pixels map onto the report's item (matched by position): x and y
 * factors; none where either size is unknown.
 */
export function scalesOnto(items: readonly BuildItem[], theirs: readonly BuildItem[]) {
  const scales = new Map<number, { x: number; y: number }>();
  for (const item of items) {
    const other = theirs.find((t) => t.index === item.index);
    if (item.width && item.height && other?.width && other.height) {
      scales.set(item.index, { x: item.width / other.width, y: item.height / other.height });
    }
  }
  return scales;
}

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

/** Results' report digests made from their frames and kept (results stored before digests, or with an older layout). */
async function madeDigests(repo: ReportsRepository, resultIds: readonly string[]) {
  const made = new Map<string, Uint8Array>();
  for (const row of await repo.framesOf(resultIds)) {
    const digest = reportDigest(row.frames, row.series, row.content_start_ms);
    await repo.saveDigest(row.id, digest);
    made.set(row.id, digest);
  }
  return made;
}

/**
 * Of the sessions' results, by result id, the resting happy score (what the happy filter reads) from each digest's
 * head; a result without a current digest gets one made and kept first, so that the build's thread finds them all.
 */
export async function restingHappyScores(
  repo: ReportsRepository,
  rows: readonly { result_id: string; digest_head: Uint8Array | null }[],
): Promise<Map<string, number | null>> {
  const made = await madeDigests(
    repo,
    rows.filter((r) => !isCurrentDigest(r.digest_head)).map((r) => r.result_id),
  );
  return new Map(
    rows.map(({ result_id, digest_head }) => {
      const digest = isCurrentDigest(digest_head) ? digest_head : made.get(result_id);
      return [result_id, digest ? restingHappyOf(digest) : null];
    }),
  );
}

/** One result's report digest, read (made and kept first when it has none, or one of an older layout). */
export async function digestOf(
  repo: ReportsRepository,
  result: { result_id: string; report_digest: Uint8Array | null },
): Promise<ReportDigest | null> {
  const bytes = isCurrentDigest(result.report_digest)
    ? result.report_digest
    : (await madeDigests(repo, [result.result_id])).get(result.result_id);
  return bytes ? readDigest(bytes) : null;
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
    const mediaOf = (campaignId: string) => media.filter((m) => m.campaign_id === campaignId);
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
      await repo.fail(id, generation, 'report.noProcesses');
      await notifyReportBuild(ctx.deps, id, generation, 'failed');
      return;
    }
    // Website prototypes: each task over the included respondents, marks applied.
    const includedIds = included.map((s) => s.session_id);
    const researched = await Promise.all(ids.map((rid) => researchRuns(ctx.deps, rid, includedIds)));
    const tasks = tasksOf(
      researched[0]?.tasks ?? [],
      researched.flatMap((r) => r.runs),
      new Map(mediaOf(def.campaign_id).map((m) => [m.id, m])),
    );
    const researches = pool.map((r) => ({
      id: r.id,
      title: r.title,
      respondents: included.filter((s) => s.campaign_id === r.id).length,
    }));
    // A whole-sample shift report joins the research's base; a pooled report is not one research's sample.
    const wholeSample = def.type === 'shift' && isWholeSample(def.filters) && ids.length === 1;
    // The digests' read, the arithmetic, the additions and the JSON text in a worker thread: in the embedded mode this
    // job shares the API's process. On PostgreSQL the thread reads the digests over its own connection; the embedded
    // database lives in this thread, so the job runs the COPY and hands its bytes over.
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
        additions: {
          tasks,
          researches,
          benchmark: base ? { research: def, base, wholeSample } : null,
        },
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
    // Its subscribers move a self-service test on and tell the report's maker (decision 027).
    if (written) await ctx.queue.publish('report.built', { report_id: id, generation });
    log.info({ written, respondents, ms: Math.round(performance.now() - started) }, 'report built');
  } catch (err) {
    log.error({ err }, 'report build failed');
    if (!isFinalAttempt(attempt)) throw err;
    await repo.fail(id, generation, 'report.lastFailed');
    await notifyReportBuild(ctx.deps, id, generation, 'failed');
  }
}
