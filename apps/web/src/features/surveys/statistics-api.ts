import { type Language, type ResponseFilter, type SurveySlot, surveyStatisticsOutput } from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiDownload, apiRequest } from '../../api/client.ts';

const id = (value: string) => encodeURIComponent(value);

export const surveyStatisticsKeys = {
  all: (researchId: string) => ['survey-statistics', researchId] as const,
  one: (researchId: string, slot: SurveySlot, filter: ResponseFilter, reportId: string | null) =>
    [...surveyStatisticsKeys.all(researchId), slot, filter, reportId] as const,
};

/**
 * POST /cabinet/campaigns/{id}/survey-statistics/: the research's screener or survey over the filtered respondents
 * (of a built report only, when `reportId` is given).
 */
export function useSurveyStatistics(
  researchId: string,
  slot: SurveySlot,
  filter: ResponseFilter,
  reportId: string | null = null,
) {
  return useQuery({
    queryKey: surveyStatisticsKeys.one(researchId, slot, filter, reportId),
    queryFn: () =>
      apiRequest('POST', `/cabinet/campaigns/${id(researchId)}/survey-statistics/`, surveyStatisticsOutput, {
        slot,
        filter,
        report_id: reportId,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST …/survey-statistics/export/: the answers as an XLSX or CSV file, saved by the browser. */
export function useSurveyExport(researchId: string) {
  return useMutation({
    mutationFn: (input: {
      slot: SurveySlot;
      filter: ResponseFilter;
      format: 'xlsx' | 'csv';
      language: Language;
      report_id: string | null;
    }) =>
      apiDownload(
        'POST',
        `/cabinet/campaigns/${id(researchId)}/survey-statistics/export/`,
        input,
        `answers.${input.format}`,
      ),
  });
}
