import {
  type CreateReportInput,
  gazePlotOutput,
  type HeatmapTheme,
  type Language,
  playbackOutput,
  poolableResearchesOutput,
  type REPORT_EXPORTS,
  type ReportAreaInput,
  type ReportFileKind,
  type ReportSummary,
  reportFileSchema,
  reportFilesOutput,
  reportGuidanceOutput,
  reportListOutput,
  reportOutput,
  reportSummarySchema,
  type TaskMarksInput,
  taskStatisticsOutput,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, apiUpload } from '../../api/client.ts';

const id = (value: string) => encodeURIComponent(value);

export const reportKeys = {
  list: (researchId: string) => ['reports', 'campaign', researchId] as const,
  one: (reportId: string) => ['reports', 'one', reportId] as const,
};

/** While a build runs, its state is asked for every 2 s. */
const pollWhileBuilding = (running: boolean) => (running ? 2000 : false);
const isBuilding = (reports: readonly Pick<ReportSummary, 'status'>[] | undefined) =>
  (reports ?? []).some((r) => r.status === 'in_progress');

/** GET /report_builder/api/campaigns/{id}/reports/ — polled while a build runs. */
export function useReports(researchId: string) {
  return useQuery({
    queryKey: reportKeys.list(researchId),
    queryFn: () => apiRequest('GET', `/campaigns/${id(researchId)}/reports/`, reportListOutput, undefined, 'builder'),
    refetchInterval: (query) => pollWhileBuilding(isBuilding(query.state.data)),
  });
}

/** GET /report_builder/api/reports/{id}/ — the report with its snapshot; polled until the build ends. */
export function useReport(reportId: string) {
  return useQuery({
    queryKey: reportKeys.one(reportId),
    queryFn: () => apiRequest('GET', `/reports/${id(reportId)}/`, reportOutput, undefined, 'builder'),
    refetchInterval: (query) => pollWhileBuilding(query.state.data?.status === 'in_progress'),
  });
}

/** GET /report_builder/api/reports/{id}/guidance/ — the live guidance of the report's sessions (decision 045). */
export function useReportGuidance(reportId: string) {
  return useQuery({
    queryKey: [...reportKeys.one(reportId), 'guidance'],
    queryFn: () => apiRequest('GET', `/reports/${id(reportId)}/guidance/`, reportGuidanceOutput, undefined, 'builder'),
  });
}

/** GET /report_builder/api/campaigns/{id}/reports/researches/ — the researches a report on this one may pool. */
export function usePoolableResearches(researchId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['reports', 'poolable', researchId],
    queryFn: () =>
      apiRequest(
        'GET',
        `/campaigns/${id(researchId)}/reports/researches/`,
        poolableResearchesOutput,
        undefined,
        'builder',
      ),
    enabled,
  });
}

/** POST /report_builder/api/campaigns/{id}/reports/ */
export function useCreateReport(researchId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReportInput) =>
      apiRequest('POST', `/campaigns/${id(researchId)}/reports/`, reportSummarySchema, input, 'builder'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.list(researchId) }),
  });
}

/** Rebuild, cancel or delete one report. */
export function useReportAction(researchId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, action }: { reportId: string; action: 'rebuild' | 'cancel' | 'delete' }) =>
      action === 'delete'
        ? apiRequest('DELETE', `/reports/${id(reportId)}/`, z.unknown(), undefined, 'builder')
        : apiRequest('POST', `/reports/${id(reportId)}/${action}/`, reportSummarySchema, undefined, 'builder'),
    onSettled: (_data, _error, { reportId }) => {
      queryClient.invalidateQueries({ queryKey: reportKeys.list(researchId) });
      queryClient.invalidateQueries({ queryKey: reportKeys.one(reportId) });
    },
  });
}

export type ReportExportKind = (typeof REPORT_EXPORTS)[number];

/** An export's path under /api (texts of questionnaire answers in `language`). */
export const reportExportPath = (
  reportId: string,
  kind: ReportExportKind,
  format: 'xlsx' | 'csv',
  language: Language,
) => `/reports/${id(reportId)}/export/?kind=${kind}&format=${format}&language=${language}`;

/** PUT /report_builder/api/reports/{id}/areas/ — the drawn areas, whole; the report is built again with them. */
export function useSetReportAreas(researchId: string, reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (areas: ReportAreaInput[]) =>
      apiRequest('PUT', `/reports/${id(reportId)}/areas/`, reportSummarySchema, { areas }, 'builder'),
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: reportKeys.list(researchId) });
      queryClient.invalidateQueries({ queryKey: reportKeys.one(reportId) });
    },
  });
}

export const taskKeys = { one: (researchId: string) => ['task-statistics', researchId] as const };

/** GET /report_builder/api/campaigns/{id}/task-statistics/ — a website prototype's tasks and each run's mark. */
export function useTaskStatistics(researchId: string, enabled: boolean) {
  return useQuery({
    queryKey: taskKeys.one(researchId),
    queryFn: () =>
      apiRequest('GET', `/campaigns/${id(researchId)}/task-statistics/`, taskStatisticsOutput, undefined, 'builder'),
    enabled,
  });
}

/** PUT /report_builder/api/campaigns/{id}/task-marks/ — the answer is the statistics as they are now. */
export function useSetTaskMarks(researchId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (marks: TaskMarksInput['marks']) =>
      apiRequest('PUT', `/campaigns/${id(researchId)}/task-marks/`, taskStatisticsOutput, { marks }, 'builder'),
    onSuccess: (data) => queryClient.setQueryData(taskKeys.one(researchId), data),
  });
}

/** GET /report_builder/api/reports/{id}/gaze-plot/ — one respondent's fixations on one item (null: none chosen). */
export function useGazePlot(reportId: string, sessionId: string | null, item: number) {
  return useQuery({
    queryKey: ['reports', 'gaze-plot', reportId, sessionId, item] as const,
    queryFn: () =>
      apiRequest(
        'GET',
        `/reports/${id(reportId)}/gaze-plot/?session_id=${id(sessionId ?? '')}&item=${item}`,
        gazePlotOutput,
        undefined,
        'builder',
      ),
    enabled: sessionId !== null,
  });
}

export const reportFileKeys = { all: (reportId: string) => ['reports', 'files', reportId] as const };

/** GET /cabinet/reports/{id}/files/ — the presentation and the video export; polled while one is being made. */
export function useReportFiles(reportId: string) {
  return useQuery({
    queryKey: reportFileKeys.all(reportId),
    queryFn: () => apiRequest('GET', `/cabinet/reports/${id(reportId)}/files/`, reportFilesOutput),
    refetchInterval: (query) => (query.state.data?.files.some((f) => f.status === 'in_progress') ? 1500 : false),
  });
}

/** Make a file (POST), remove it (DELETE) or attach one's own presentation (PUT with the file as the body). */
export function useReportFileAction(reportId: string) {
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: reportFileKeys.all(reportId) });
  const path = (kind: ReportFileKind) => `/cabinet/reports/${id(reportId)}/files/${kind}/`;
  return {
    generate: useMutation({
      mutationFn: ({ kind, language, theme }: { kind: ReportFileKind; language: Language; theme: HeatmapTheme }) =>
        apiRequest('POST', path(kind), reportFileSchema, { language, theme }),
      onSettled: done,
    }),
    remove: useMutation({
      mutationFn: (kind: ReportFileKind) => apiRequest('DELETE', path(kind), z.unknown()),
      onSettled: done,
    }),
    attach: useMutation({
      mutationFn: ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) =>
        apiUpload(
          'PUT',
          `${path('presentation')}?filename=${encodeURIComponent(file.name)}`,
          reportFileSchema,
          file,
          onProgress,
        ),
      onSettled: done,
    }),
  };
}

/** A file's download path under /api. */
export const reportFileDownloadPath = (reportId: string, kind: ReportFileKind) =>
  `/cabinet/reports/${id(reportId)}/files/${kind}/download/`;

/** GET /report_builder/api/reports/{id}/playback/ — one respondent's gaze on an item over time and their kept recording. */
export function usePlayback(reportId: string, sessionId: string | null, item: number) {
  return useQuery({
    queryKey: ['reports', 'playback', reportId, sessionId, item] as const,
    queryFn: () =>
      apiRequest(
        'GET',
        `/reports/${id(reportId)}/playback/?session_id=${id(sessionId ?? '')}&item=${item}`,
        playbackOutput,
        undefined,
        'builder',
      ),
    enabled: sessionId !== null,
  });
}
