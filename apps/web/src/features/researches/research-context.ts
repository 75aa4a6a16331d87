import type { Research } from '@emolens/contracts';
import { useOutletContext } from 'react-router';

/** The placeholder id of a research being created (spec section 2). */
export const NEW_ID = 'new';

export interface ResearchContext {
  /** null while creating (`campaign/new/...`). */
  research: Research | null;
  refetch: () => Promise<{ data?: Research | undefined }>;
}

/** What the children of campaign/{id} get from it. */
export function useResearchContext(): ResearchContext {
  return useOutletContext<ResearchContext>();
}
