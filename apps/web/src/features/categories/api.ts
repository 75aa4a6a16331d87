import { benchmarksOutput, type CreateCategoryInput, categoriesOutput, type NormFile } from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiDownload, apiRequest } from '../../api/client.ts';

const id = (value: string) => encodeURIComponent(value);

export const categoryKeys = {
  directory: ['categories'] as const,
  benchmarks: ['benchmarks'] as const,
};

/** GET /cabinet/categories/ — the directory a research's categories are chosen from. */
export function useCategories() {
  return useQuery({
    queryKey: categoryKeys.directory,
    queryFn: () => apiRequest('GET', '/cabinet/categories/', categoriesOutput),
    staleTime: 60_000,
  });
}

/** Add, rename or remove a directory value. */
export function useCategoryAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: 'create'; input: CreateCategoryInput }
        | { kind: 'rename'; id: string; name: string }
        | { kind: 'delete'; id: string },
    ) => {
      if (action.kind === 'create') return apiRequest('POST', '/cabinet/categories/', z.unknown(), action.input);
      if (action.kind === 'rename') {
        return apiRequest('PATCH', `/cabinet/categories/${id(action.id)}/`, z.unknown(), { name: action.name });
      }
      return apiRequest('DELETE', `/cabinet/categories/${id(action.id)}/`, z.unknown());
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: categoryKeys.directory }),
  });
}

/** GET /cabinet/benchmarks/ — base sizes and imported norm bases. */
export function useBenchmarks() {
  return useQuery({
    queryKey: categoryKeys.benchmarks,
    queryFn: () => apiRequest('GET', '/cabinet/benchmarks/', benchmarksOutput),
  });
}

/** Import a norm base file, or remove an imported one. */
export function useNormImportAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'import'; name: string; file: NormFile } | { kind: 'delete'; id: string }) =>
      action.kind === 'import'
        ? apiRequest('POST', '/cabinet/benchmarks/imports/', z.unknown(), { name: action.name, file: action.file })
        : apiRequest('DELETE', `/cabinet/benchmarks/imports/${id(action.id)}/`, z.unknown()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: categoryKeys.benchmarks }),
  });
}

export const exportNorms = () => apiDownload('GET', '/cabinet/benchmarks/export/', undefined, 'emolens-norms.json');
