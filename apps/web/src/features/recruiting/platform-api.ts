import { RECRUITING_PLATFORM_CONTRACTS, type RecruitingPlatform, recruitingPath } from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import type { PlatformState } from './platform-view.ts';

const key = (platform: RecruitingPlatform, researchId: string) => ['recruiting-job', platform, researchId] as const;

/**
 * GET /api/cabinet/campaigns/{id}/{platform}/ — the platform's own state of the research's pool or HIT, asked again
 * every 15 s while the page is open.
 */
export function useRecruitingJob(platform: RecruitingPlatform, researchId: string) {
  return useQuery({
    queryKey: key(platform, researchId),
    queryFn: (): Promise<PlatformState> =>
      apiRequest('GET', recruitingPath(platform, researchId), RECRUITING_PLATFORM_CONTRACTS[platform].output),
    refetchInterval: 15_000,
  });
}

/** Makes the pool or HIT (the form's input), or acts on it (open, close, expire…); each answer is the state after. */
export function useRecruitingJobAction(platform: RecruitingPlatform, researchId: string) {
  const client = useQueryClient();
  const output = RECRUITING_PLATFORM_CONTRACTS[platform].output;
  return useMutation({
    mutationFn: (
      action: { kind: 'create'; input: Record<string, unknown> } | { kind: string },
    ): Promise<PlatformState> =>
      'input' in action
        ? apiRequest('POST', recruitingPath(platform, researchId), output, action.input)
        : apiRequest('POST', recruitingPath(platform, researchId, action.kind), output),
    onSuccess: (data) => client.setQueryData(key(platform, researchId), data),
    onError: () => client.invalidateQueries({ queryKey: key(platform, researchId) }),
  });
}
