import type { Research } from '@emolens/contracts';

/** The page of a research: contentless ones have their own form. */
export function researchPath(research: Pick<Research, 'id' | 'content_type'>): string {
  return `/cabinet/campaign/${research.id}/${research.content_type === 'contentless' ? 'contentless' : 'form'}`;
}
