import type { Campaign } from '@emolens/contracts';

/** The page of a research: contentless ones have their own form. */
export function campaignPath(campaign: Pick<Campaign, 'id' | 'content_type'>): string {
  return `/cabinet/campaign/${campaign.id}/${campaign.content_type === 'contentless' ? 'contentless' : 'form'}`;
}
