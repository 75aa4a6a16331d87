import type { RecruitingPlatform } from '@emolens/contracts';
import type { PlatformView } from '../platform-view.ts';
import { MTURK_VIEW } from './mturk.tsx';
import { PROLIFIC_VIEW } from './prolific.tsx';
import { TOLOKA_VIEW } from './toloka.tsx';

/** Every recruiting platform's view, by platform (a platform's contract is `RECRUITING_PLATFORM_CONTRACTS`). */
export const PLATFORM_VIEWS: Record<RecruitingPlatform, PlatformView> = {
  toloka: TOLOKA_VIEW,
  mturk: MTURK_VIEW,
  prolific: PROLIFIC_VIEW,
};
