import {
  type AcceptanceMode,
  type AssignmentDecisionsOutput,
  assignmentDecisionsOutput,
  type RecruitingPlatform,
  recruitingPath,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';

const key = (platform: RecruitingPlatform, researchId: string) => ['decisions', platform, researchId] as const;

/** GET /api/cabinet/campaigns/{id}/{toloka|mturk}/decisions/ — decisions on the assignments (issue 14, items 5, 6). */
export function useDecisions(platform: RecruitingPlatform, researchId: string) {
  return useQuery({
    queryKey: key(platform, researchId),
    queryFn: () => apiRequest('GET', recruitingPath(platform, researchId, 'decisions'), assignmentDecisionsOutput),
  });
}

/** The acceptance setting, checking the submitted codes, and sending the decisions waiting; each answer is the list after. */
export function useDecisionsAction(platform: RecruitingPlatform, researchId: string) {
  const client = useQueryClient();
  const base = recruitingPath(platform, researchId);
  return useMutation({
    mutationFn: (
      action:
        | { kind: 'acceptance'; acceptance: AcceptanceMode }
        | { kind: 'review' }
        | { kind: 'confirm'; assignmentIds?: string[] },
    ): Promise<AssignmentDecisionsOutput> => {
      if (action.kind === 'acceptance') {
        return apiRequest('PUT', `${base}acceptance/`, assignmentDecisionsOutput, { acceptance: action.acceptance });
      }
      if (action.kind === 'review') return apiRequest('POST', `${base}review/`, assignmentDecisionsOutput);
      return apiRequest('POST', `${base}decisions/confirm/`, assignmentDecisionsOutput, {
        assignment_ids: action.assignmentIds ?? null,
      });
    },
    onSuccess: (data) => client.setQueryData(key(platform, researchId), data),
    onError: () => client.invalidateQueries({ queryKey: key(platform, researchId) }),
  });
}
