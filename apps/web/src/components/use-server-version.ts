import type { UseFormReturnType } from '@mantine/form';
import { useEffect, useState } from 'react';

/**
 * A form filled from an object of the server, saved with optimistic concurrency: `base` is the
 * version the form was filled from (a save sends it, and a newer one on the server answers 409),
 * `conflict` the notice of such an answer, `fill` takes a version into the form. A newer version
 * from the server replaces the form unless the user is editing it; one that can no longer be edited
 * (a launched project's, say) replaces it always.
 */
export function useServerVersion<T extends { updated_at: string }, V>(
  form: UseFormReturnType<V>,
  server: T | null,
  valuesOf: (item: T) => V,
  editable: (item: T) => boolean,
) {
  const [base, setBase] = useState(server?.updated_at ?? '');
  const [conflict, setConflict] = useState<string | null>(null);

  const fill = (next: T) => {
    const values = valuesOf(next);
    form.setInitialValues(values);
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    setBase(next.updated_at);
    setConflict(null);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the server's version only
  useEffect(() => {
    if (server && server.updated_at !== base && (!form.isDirty() || !editable(server))) fill(server);
  }, [server]);

  return { base, conflict, setConflict, fill };
}
