import { type Language, type ResponseFilter, type SurveySlot, surveyStatisticsOutput } from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiDownload, apiRequest } from '../../api/client.ts';

const id = (value: string) => encodeURIComponent(value);

export const surveyStatisticsKeys = {
  all: (campaignId: string) => ['survey-statistics', campaignId] as const,
  one: (campaignId: string, slot: SurveySlot, filter: ResponseFilter, reportId: string | null) =>
    [...surveyStatisticsKeys.all(campaignId), slot, filter, reportId] as const,
};

/**
 * POST /cabinet/campaigns/{id}/survey-statistics/: the research's screener or survey over the filtered respondents
 * (of a built report only, when `reportId` is given).
 */
export function useSurveyStatistics(
  campaignId: string,
  slot: SurveySlot,
  filter: ResponseFilter,
  reportId: string | null = null,
) {
  return useQuery({
    queryKey: surveyStatisticsKeys.one(campaignId, slot, filter, reportId),
    queryFn: () =>
      apiRequest('POST', `/cabinet/campaigns/${id(campaignId)}/survey-statistics/`, surveyStatisticsOutput, {
        slot,
        filter,
        report_id: reportId,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST …/survey-statistics/export/: the answers as an XLSX or CSV file, saved by the browser. */
export function useSurveyExport(campaignId: string) {
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
        `/cabinet/campaigns/${id(campaignId)}/survey-statistics/export/`,
        input,
        `answers.${input.format}`,
      ),
  });
}
