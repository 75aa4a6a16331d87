import { storedResearchSettings } from '@emolens/contracts';
import { ISOLATION_HEADERS } from '../../http/isolation.ts';
import { deviceAnalysisRules } from './analysis-rules.ts';
import type { RespondentsDeps } from './respondents.service.ts';

/**
 * The respondent page of a privacy-mode research is cross-origin isolated (issue 32, item 1; decision 072), so the
 * face engine in its worker may run onnxruntime's WebAssembly on several threads (SharedArrayBuffer). The page loads
 * nothing cross-origin but the research's media (no-cors images and videos: fetched without credentials under
 * `credentialless`) and a Figma prototype's frame, which an isolated page could not embed in every browser: a link
 * whose researches show one is not isolated. Its worker scripts carry `WORKER_SCRIPT_HEADERS` (app.ts, engine-assets).
 */

/** The respondent's entry page: `/project-research/{token}` (the SPA's route; the link's token). */
const ENTRY = /^\/project-research\/([^/]+)\/?$/;

/**
 * The headers of the app's shell at `path`: the isolation headers for a link whose researches keep the video on the
 * device and show no Figma prototype, none otherwise (any other page, an unknown link).
 */
export async function respondentPageHeaders(
  deps: Pick<RespondentsDeps, 'respondents'>,
  path: string,
): Promise<Partial<typeof ISOLATION_HEADERS>> {
  const token = ENTRY.exec(path)?.[1];
  if (!token) return {};
  const link = await deps.respondents.findLink(token);
  if (!link) return {};
  const researches = await deps.respondents.researchesOfScenario(link.scenario_id);
  const figma = researches.some((r) => storedResearchSettings(r.settings).isFigma);
  return deviceAnalysisRules(researches).onDevice && !figma ? ISOLATION_HEADERS : {};
}
