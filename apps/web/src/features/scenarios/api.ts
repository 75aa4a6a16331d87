import {
  type AccessorLink,
  accessorLinkOutput,
  batchEstimateOutput,
  createAccessorLinkInput,
  createScenarioInput,
  reorderScenariosInput,
  type Scenario,
  scenarioListOutput,
  scenarioOutput,
  setFaceCheckerInput,
  setPaymentInput,
  setQuotaSizeInput,
  setScreenerFirstInput,
  updateScenarioInput,
} from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';
import { projectKeys } from '../projects/api.ts';

export type CreateScenarioInput = z.input<typeof createScenarioInput>;
export type UpdateScenarioInput = z.input<typeof updateScenarioInput>;
export type CreateAccessorLinkInput = z.input<typeof createAccessorLinkInput>;

const projectPath = (id: string) => `/cabinet/projects/${encodeURIComponent(id)}/`;
const scenarioPath = (id: string) => `/cabinet/scenarios/${encodeURIComponent(id)}/`;
const linkPath = (id: string) => `/cabinet/project-accessor-links/${encodeURIComponent(id)}/`;

export const scenarioKeys = {
  list: (projectId: string) => ['scenarios', 'list', projectId] as const,
  links: (projectId: string) => ['scenarios', 'links', projectId] as const,
};

/** GET /cabinet/projects/{id}/scenarios/: the project's scenarios in order. */
export function useScenarioList(projectId: string) {
  return useQuery({
    queryKey: scenarioKeys.list(projectId),
    queryFn: async () => (await apiRequest('GET', `${projectPath(projectId)}scenarios/`, scenarioListOutput)).items,
  });
}

/** GET /cabinet/projects/{id}/project-accessor-links/: the project's quota links. */
export function useAccessorLinks(projectId: string) {
  return useQuery({
    queryKey: scenarioKeys.links(projectId),
    queryFn: async () =>
      (
        await apiRequest(
          'GET',
          `${projectPath(projectId)}project-accessor-links/`,
          z.object({ items: z.array(accessorLinkOutput) }),
        )
      ).items,
  });
}

/**
 * POST /entity_session/batch-estimate-count/ for the project's quota links. The key holds each
 * link's quota size, which the estimate multiplies by: a new size estimates again. Under the links'
 * key, so that a change to the links or scenarios does too; errors are shown by the panel.
 */
export function useLinksEstimate(projectId: string, links: readonly AccessorLink[]) {
  return useQuery({
    queryKey: [...scenarioKeys.links(projectId), 'estimate', ...links.map((link) => [link.id, link.quota_size])],
    queryFn: () =>
      apiRequest('POST', '/entity_session/batch-estimate-count/', batchEstimateOutput, {
        items: links.map((link) => ({ type: 'project_accessor_link', id: link.id })),
      }),
    enabled: links.length > 0,
    // The figures stay on screen while a new quota size is estimated.
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/** After a change: the scenarios, the quota links and the project's counts. */
function useRefresh(projectId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: scenarioKeys.list(projectId) });
    void client.invalidateQueries({ queryKey: scenarioKeys.links(projectId) });
    void client.invalidateQueries({ queryKey: projectKeys.detail(projectId) });
  };
}

/** invalid_state means the project was launched meanwhile: show it as it is now. */
function useOnStateError(projectId: string) {
  const client = useQueryClient();
  return (error: unknown) => {
    if (error instanceof ApiRequestError && (error.code === 'invalid_state' || error.code === 'not_found')) {
      void client.invalidateQueries({ queryKey: projectKeys.detail(projectId) });
      void client.invalidateQueries({ queryKey: scenarioKeys.list(projectId) });
      void client.invalidateQueries({ queryKey: scenarioKeys.links(projectId) });
    }
  };
}

/** POST /cabinet/projects/{id}/scenarios/. Silent: the modal shows field errors. */
export function useCreateScenario(projectId: string) {
  const refresh = useRefresh(projectId);
  const onError = useOnStateError(projectId);
  return useMutation({
    mutationFn: (input: CreateScenarioInput) =>
      apiRequest('POST', `${projectPath(projectId)}scenarios/`, scenarioOutput, createScenarioInput.parse(input)),
    onSuccess: refresh,
    onError,
    meta: { silent: true },
  });
}

/** PATCH /cabinet/scenarios/{id}/; 409 conflict when changed since `updated_at`. Silent: the modal shows it. */
export function useUpdateScenario(projectId: string) {
  const refresh = useRefresh(projectId);
  const onError = useOnStateError(projectId);
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateScenarioInput }) =>
      apiRequest('PATCH', scenarioPath(id), scenarioOutput, updateScenarioInput.parse(input)),
    onSuccess: refresh,
    onError,
    meta: { silent: true },
  });
}

/** DELETE /cabinet/scenarios/{id}/ (204). */
export function useDeleteScenario(projectId: string) {
  const refresh = useRefresh(projectId);
  const onError = useOnStateError(projectId);
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', scenarioPath(id), z.unknown()),
    onSuccess: refresh,
    onError,
  });
}

/** POST /cabinet/scenarios/{id}/duplicate/: the copy goes to the end. */
export function useDuplicateScenario(projectId: string) {
  const refresh = useRefresh(projectId);
  const onError = useOnStateError(projectId);
  return useMutation({
    mutationFn: (id: string) => apiRequest('POST', `${scenarioPath(id)}duplicate/`, scenarioOutput),
    onSuccess: refresh,
    onError,
  });
}

/**
 * POST /cabinet/projects/{id}/scenarios/reorder/ with every scenario in the new order. `reorder`
 * shows the new order at once (before the request, so a dragged row does not jump back) and saves
 * it; a failed save puts the old order back (the error is notified globally).
 */
export function useReorderScenarios(projectId: string) {
  const client = useQueryClient();
  const onError = useOnStateError(projectId);
  const key = scenarioKeys.list(projectId);
  const mutation = useMutation({
    mutationFn: (order: string[]) =>
      apiRequest(
        'POST',
        `${projectPath(projectId)}scenarios/reorder/`,
        scenarioListOutput,
        reorderScenariosInput.parse({ order }),
      ),
    onSuccess: (result) => client.setQueryData(key, result.items),
    onError,
  });
  const reorder = (scenarios: Scenario[]) => {
    const previous = client.getQueryData<Scenario[]>(key);
    void client.cancelQueries({ queryKey: key });
    client.setQueryData(
      key,
      scenarios.map((s, i) => ({ ...s, order_number: i + 1 })),
    );
    mutation.mutateAsync(scenarios.map((s) => s.id)).catch(() => {
      if (previous) client.setQueryData(key, previous);
    });
  };
  return { reorder, isPending: mutation.isPending };
}

/** GET /cabinet/scenarios/{id}/display-order/ (CSV), saved as a file. */
export async function downloadDisplayOrder(id: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/api${scenarioPath(id)}display-order/`, { credentials: 'same-origin' });
  } catch {
    throw new ApiRequestError(0, { code: 'service_unavailable' });
  }
  if (!response.ok) throw new ApiRequestError(response.status, await response.json().catch(() => ({})));
  const blob = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `scenario-${id}-display-order.csv`;
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** POST /cabinet/scenarios/{id}/project-accessor-links/. Silent: the modal shows field errors. */
export function useCreateAccessorLink(projectId: string) {
  const refresh = useRefresh(projectId);
  const onError = useOnStateError(projectId);
  return useMutation({
    mutationFn: ({ scenarioId, input }: { scenarioId: string; input: CreateAccessorLinkInput }) =>
      apiRequest(
        'POST',
        `${scenarioPath(scenarioId)}project-accessor-links/`,
        accessorLinkOutput,
        createAccessorLinkInput.parse(input),
      ),
    onSuccess: refresh,
    onError,
    meta: { silent: true },
  });
}

export type LinkOption =
  | { path: 'set-quota-size'; body: z.input<typeof setQuotaSizeInput> }
  | { path: 'set-face-checker-option'; body: z.input<typeof setFaceCheckerInput> }
  | { path: 'set-payment-option'; body: z.input<typeof setPaymentInput> }
  | { path: 'set-screener-first-option'; body: z.input<typeof setScreenerFirstInput> };

const OPTION_SCHEMAS = {
  'set-quota-size': setQuotaSizeInput,
  'set-face-checker-option': setFaceCheckerInput,
  'set-payment-option': setPaymentInput,
  'set-screener-first-option': setScreenerFirstInput,
} as const;

/** PATCH /cabinet/project-accessor-links/{id}/set-…/: one option of a quota link. */
export function useSetLinkOption(projectId: string) {
  const client = useQueryClient();
  const onError = useOnStateError(projectId);
  return useMutation({
    mutationFn: ({ id, option }: { id: string; option: LinkOption }) =>
      apiRequest(
        'PATCH',
        `${linkPath(id)}${option.path}/`,
        accessorLinkOutput,
        OPTION_SCHEMAS[option.path].parse(option.body),
      ),
    onSuccess: (link) =>
      client.setQueryData(scenarioKeys.links(projectId), (items: z.infer<typeof accessorLinkOutput>[] | undefined) =>
        items?.map((item) => (item.id === link.id ? link : item)),
      ),
    onError,
  });
}
