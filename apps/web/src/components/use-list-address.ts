import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/** How long typing pauses before a search reaches the address and the server. */
export const SEARCH_DELAY_MS = 350;

/**
 * A cabinet list's state kept in the address (`search`, `page` and the list's own filters), so a
 * reload or a shared link shows the same list; the search box follows typing at once and the
 * address after a pause.
 */
export function useListAddress() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  /** Changes some parameters of the address; any change of filter starts again at page 1. */
  const update = (changes: Record<string, string | null>, options: { replace?: boolean } = {}) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: options.replace ?? false },
    );

  const [searchInput, setSearchInput] = useState(search);
  const [debouncedSearch] = useDebouncedValue(searchInput.trim(), SEARCH_DELAY_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new search text updates the address
  useEffect(() => {
    if (debouncedSearch !== search) update({ search: debouncedSearch }, { replace: true });
  }, [debouncedSearch]);
  // Back and forward through the history bring their own search text into the box.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new address updates the box
  useEffect(() => {
    if (search !== debouncedSearch) setSearchInput(search);
  }, [search]);

  return { params, search, page, update, searchInput, setSearchInput };
}
