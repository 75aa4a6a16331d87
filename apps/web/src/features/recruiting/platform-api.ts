import { RECRUITING_PLATFORM_CONTRACTS, type RecruitingPlatform, recruitingPath } from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import type { PlatformState } from './platform-view.ts';

const key = (platform: RecruitingPlatform, campaignId: string) => ['recruiting-job', platform, campaignId] as const;

/**
 * GET /api/cabinet/campaigns/{id}/{platform}/ — the platform's own state of the research's pool or HIT, asked again
 * every 15 s while the page is open.
 */
export function useRecruitingJob(platform: RecruitingPlatform, campaignId: string) {
  return useQuery({
    queryKey: key(platform, campaignId),
    queryFn: (): Promise<PlatformState> =>
      apiRequest('GET', recruitingPath(platform, campaignId), RECRUITING_PLATFORM_CONTRACTS[platform].output),
    refetchInterval: 15_000,
  });
}

/** Makes the pool or HIT (the form's input), or acts on it (open, close, expire…); each answer is the state after. */
export function useRecruitingJobAction(platform: RecruitingPlatform, campaignId: string) {
  const client = useQueryClient();
  const output = RECRUITING_PLATFORM_CONTRACTS[platform].output;
  return useMutation({
    mutationFn: (
      action: { kind: 'create'; input: Record<string, unknown> } | { kind: string },
    ): Promise<PlatformState> =>
      'input' in action
        ? apiRequest('POST', recruitingPath(platform, campaignId), output, action.input)
        : apiRequest('POST', recruitingPath(platform, campaignId, action.kind), output),
    onSuccess: (data) => client.setQueryData(key(platform, campaignId), data),
    onError: () => client.invalidateQueries({ queryKey: key(platform, campaignId) }),
  });
}
