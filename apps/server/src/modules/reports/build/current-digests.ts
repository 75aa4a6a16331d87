import {
  isCurrentDigest,
  type ReportDigest,
  readDigest,
  reportDigest,
  restingHappyOf,
} from '../../processing/digest.ts';
import type { ReportsRepository } from '../reports.repository.ts';

/**
 * The sessions' report digests (`processing/digest.ts`) as the job needs them before the build: current, each one's
 * resting happy score (the happy filter's) from its head; results stored before digests, or with an older layout, get
 * theirs made from their frames and kept, so that the build's thread finds them all.
 */
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
