import type { Platform, RecruitingPlatform } from '@emolens/contracts';
import { cint } from './cint.ts';
import { mturk } from './mturk.ts';
import type { JobPlatform, RecruitingPlatformAdapter } from './platform.ts';
import { prolific } from './prolific.ts';
import { toloka } from './toloka.ts';

/**
 * The recruiting platforms (issue 29, item 3): one adapter each. The routes, the acceptance, the tokens and the
 * respondents' ends are driven from this table; adding a platform is one adapter file here plus its contract
 * server (docs/decisions/028-recruiting-platforms.md).
 */
export const RECRUITING_ADAPTERS = { toloka, mturk, prolific, cint } as const;

/** The platform with a pool or HIT (and tokens) of that name. */
export function jobPlatform(platform: RecruitingPlatform): JobPlatform {
  const job = RECRUITING_ADAPTERS[platform].job;
  if (!job) throw new Error(`${platform} has no pool or HIT`);
  return job;
}

/** The adapter of the platform a project recruits on; undefined: a platform with no rules of its own. */
export function adapterOfProject(platform: Platform): RecruitingPlatformAdapter | undefined {
  const adapters: RecruitingPlatformAdapter[] = Object.values(RECRUITING_ADAPTERS);
  return adapters.find((a) => a.projectPlatforms.includes(platform));
}
