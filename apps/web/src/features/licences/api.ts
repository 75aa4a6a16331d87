import { type AddPackageInput, accountLicenceOutput, ledgerOutput, licenceOutput } from '@emolens/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';

const BASE = '/cabinet/licences/';

/** GET /api/cabinet/licences/ — the account's balance, packages and consumption per project. */
export function useLicence() {
  return useQuery({ queryKey: ['licence'], queryFn: () => apiRequest('GET', BASE, licenceOutput) });
}

/** GET /api/cabinet/licences/history/ — newest first, a page at a time. */
export function useLedger() {
  return useInfiniteQuery({
    queryKey: ['licence', 'history'],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      apiRequest(
        'GET',
        `${BASE}history/?limit=25${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
        ledgerOutput,
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

const accountPath = (publicId: string) => `${BASE}accounts/${encodeURIComponent(publicId.trim().toUpperCase())}/`;

/** Staff: an account's licence by its public user id (nothing asked while the id is empty). */
export function useAccountLicence(publicId: string) {
  return useQuery({
    queryKey: ['licence', 'account', publicId.trim().toUpperCase()],
    queryFn: () => apiRequest('GET', accountPath(publicId), accountLicenceOutput),
    enabled: publicId.trim().length > 0,
    retry: false,
  });
}

/** Staff: adds a package to the account; the answer is the account after. */
export function useAddPackage(publicId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AddPackageInput) =>
      apiRequest('POST', `${accountPath(publicId)}packages/`, accountLicenceOutput, input),
    onSuccess: (data) => {
      client.setQueryData(['licence', 'account', publicId.trim().toUpperCase()], data);
      // Staff adding to their own account see it at once.
      client.invalidateQueries({ queryKey: ['licence'], exact: true });
      client.invalidateQueries({ queryKey: ['licence', 'history'] });
    },
  });
}
