import {
  checkTokensOutput,
  processesListOutput,
  type QuotaStatistics,
  quotaStatisticsOutput,
  RESPONDENT_API,
  type RespondentSessionStatus,
  reprocessOutput,
  respondentSessionListOutput,
  videoProcessOutput,
  videoprocessesStatisticOutput,
} from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiRequestError, apiRequest } from '../../api/client.ts';
import { researchKeys } from '../researches/api.ts';
import { LIVE_PROCESS_INTERVAL, processPollInterval } from './process-view.ts';

const id = (value: string) => encodeURIComponent(value);

export const fieldworkKeys = {
  quota: (projectId: string) => ['fieldwork', 'quota', projectId] as const,
  project: (projectId: string) => ['fieldwork', 'project', projectId] as const,
  /** Every page and filter of one owner's sessions. */
  sessionsOf: (owner: 'projects' | 'campaigns', ownerId: string) => ['fieldwork', 'sessions', owner, ownerId] as const,
  sessions: (owner: 'projects' | 'campaigns', ownerId: string, status: string, page: number) =>
    [...fieldworkKeys.sessionsOf(owner, ownerId), status, page] as const,
  processes: (researchId: string) => ['fieldwork', 'processes', researchId] as const,
  processStats: (researchId: string) => ['fieldwork', 'process-stats', researchId] as const,
};

/** No retry of a "not found": the page says so at once. */
const retryUnlessMissing = (count: number, error: unknown) =>
  count < 2 && !(error instanceof ApiRequestError && error.status < 500 && error.status !== 0);

/** GET /r/quota/{projectId}: the public quota page (no login), refreshed every 15 s. */
export function usePublicQuota(projectId: string) {
  return useQuery({
    queryKey: fieldworkKeys.quota(projectId),
    queryFn: async (): Promise<QuotaStatistics> => {
      let response: Response;
      try {
        response = await fetch(`${RESPONDENT_API}/quota/${id(projectId)}`, { headers: { accept: 'application/json' } });
      } catch {
        throw new ApiRequestError(0, { code: 'service_unavailable' });
      }
      const payload: unknown = await response.json().catch(() => ({}));
      if (!response.ok) throw new ApiRequestError(response.status, payload as Record<string, never>);
      return quotaStatisticsOutput.parse(payload);
    },
    refetchInterval: 15_000,
    retry: retryUnlessMissing,
    meta: { silent: true },
  });
}

/** GET /cabinet/projects/{id}/fieldwork/: live (every 10 s) while the project collects. */
export function useProjectFieldwork(projectId: string, live: boolean) {
  return useQuery({
    queryKey: fieldworkKeys.project(projectId),
    queryFn: () => apiRequest('GET', `/cabinet/projects/${id(projectId)}/fieldwork/`, quotaStatisticsOutput),
    refetchInterval: live ? 10_000 : false,
    retry: retryUnlessMissing,
  });
}

/** The sessions of a project or of a research, a page at a time. */
export function useRespondentSessions(
  owner: 'projects' | 'campaigns',
  ownerId: string,
  options: { status: RespondentSessionStatus | ''; page: number; live?: boolean },
) {
  const query = new URLSearchParams({ page: String(options.page), page_size: '20' });
  if (options.status) query.set('status', options.status);
  return useQuery({
    queryKey: fieldworkKeys.sessions(owner, ownerId, options.status, options.page),
    queryFn: () =>
      apiRequest('GET', `/cabinet/${owner}/${id(ownerId)}/respondent-sessions/?${query}`, respondentSessionListOutput),
    placeholderData: keepPreviousData,
    refetchInterval: options.live ? 10_000 : false,
    retry: retryUnlessMissing,
  });
}

/**
 * GET /videoprocessor/campaigns-processes-list/?campaign=: live (every 3 s) while any process waits or
 * runs, still otherwise. The interval pauses while the tab is hidden (and the client waits until it
 * is visible again).
 */
export function useVideoProcesses(researchId: string) {
  return useQuery({
    queryKey: fieldworkKeys.processes(researchId),
    queryFn: async () =>
      (
        await apiRequest(
          'GET',
          `/videoprocessor/campaigns-processes-list/?campaign=${id(researchId)}`,
          processesListOutput,
        )
      ).items,
    refetchInterval: (query) => processPollInterval(query.state.data),
    refetchIntervalInBackground: false,
    retry: retryUnlessMissing,
  });
}

/** POST /cabinet/campaigns/videoprocesses-statistic/ for one research; live alongside the list. */
export function useVideoProcessStatistic(researchId: string, live: boolean) {
  return useQuery({
    queryKey: fieldworkKeys.processStats(researchId),
    queryFn: async () =>
      (
        await apiRequest('POST', '/cabinet/campaigns/videoprocesses-statistic/', videoprocessesStatisticOutput, {
          campaigns: [researchId],
        })
      ).items[0] ?? null,
    refetchInterval: live ? LIVE_PROCESS_INTERVAL : false,
    refetchIntervalInBackground: false,
    retry: retryUnlessMissing,
  });
}

/**
 * After a restart, cancel or reprocess, and when the last process settles: the list, the counts, the sessions
 * (whose quota slots the results decide) and the research's status are read again.
 */
function useRefreshProcesses(researchId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: fieldworkKeys.processes(researchId) });
    void client.invalidateQueries({ queryKey: fieldworkKeys.processStats(researchId) });
    void client.invalidateQueries({ queryKey: fieldworkKeys.sessionsOf('campaigns', researchId) });
    void client.invalidateQueries({ queryKey: researchKeys.detail(researchId) });
    void client.invalidateQueries({ queryKey: researchKeys.lists() });
  };
}

/**
 * The counts poll only while processes run, so the poll that sees the last one finish came too late for them:
 * when `live` turns off, everything that depends on the results is read once more.
 */
export function useRefreshWhenSettled(researchId: string, live: boolean) {
  const refresh = useRefreshProcesses(researchId);
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) refresh();
    wasLive.current = live;
  }, [live, refresh]);
}

/** POST /cabinet/video-processes/{id}/restart/ or …/cancel/ */
export function useProcessAction(researchId: string) {
  const refresh = useRefreshProcesses(researchId);
  return useMutation({
    mutationFn: ({ processId, action }: { processId: string; action: 'restart' | 'cancel' }) =>
      apiRequest('POST', `/cabinet/video-processes/${id(processId)}/${action}/`, videoProcessOutput),
    onSettled: refresh,
  });
}

/** POST /cabinet/campaigns/{id}/reprocess/ */
export function useReprocessResearch(researchId: string) {
  const refresh = useRefreshProcesses(researchId);
  return useMutation({
    mutationFn: () => apiRequest('POST', `/cabinet/campaigns/${id(researchId)}/reprocess/`, reprocessOutput),
    onSettled: refresh,
  });
}

/** The research's Cint file (CSV), downloaded by the browser with the session cookie. */
export const cintFileUrl = (researchId: string) =>
  `/api/videoprocessor/campaigns-processes-list/cint-processes-statistic/${id(researchId)}`;

/** POST /cabinet/check-token/ */
export function useCheckTokens() {
  return useMutation({
    mutationFn: (codes: string) => apiRequest('POST', '/cabinet/check-token/', checkTokensOutput, { codes }),
  });
}
