import { benchmarkBaseOutput } from '@emolens/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';

/**
 * GET /api/public/benchmark-base/ (no login): how many creatives the benchmark base really holds. The public pages
 * name the number only when there is one (0 or not known yet: the texts without it).
 */
export function useBenchmarkCreatives(): number {
  const base = useQuery({
    queryKey: ['benchmark-base'],
    queryFn: () => apiRequest('GET', '/public/benchmark-base/', benchmarkBaseOutput),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  return base.data?.creatives ?? 0;
}
