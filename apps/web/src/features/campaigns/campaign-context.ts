import type { Campaign } from '@emolens/contracts';
import { useOutletContext } from 'react-router';

/** The placeholder id of a research being created (spec section 2). */
export const NEW_ID = 'new';

export interface CampaignContext {
  /** null while creating (`campaign/new/...`). */
  campaign: Campaign | null;
  refetch: () => Promise<{ data?: Campaign | undefined }>;
}

/** What the children of campaign/{id} get from it. */
export function useCampaignContext(): CampaignContext {
  return useOutletContext<CampaignContext>();
}
