import { PROJECT_STATUSES, PROJECT_TRANSITIONS, type ProjectAction, type ProjectStatus } from '@emolens/contracts';

/**
 * What a project's status allows (spec section 4), stated once for the project and the parts that
 * hang from it: the services check these and send the same answers to the web app as `can` flags.
 */
export const projectRules = {
  /** Project fields: a completed project stays viewable but not editable; an archived one is hidden. */
  edit: (status: ProjectStatus) => status === 'new' || status === 'active',
  /** Researches, their content and the scenarios: launching freezes them. */
  editSetup: (status: ProjectStatus) => status === 'new',
  /** Quota links are made and tuned while the project is a draft or collecting. */
  manageQuotaLinks: (status: ProjectStatus) => status === 'new' || status === 'active',
  /**
   * Retention and deleting respondent data on request: data protection does not wait for a status
   * (decision 011), so every status allows it.
   */
  manageData: (_status: ProjectStatus) => true,
  /** Only a draft can be deleted, irreversibly. */
  delete: (status: ProjectStatus) => status === 'new',
  transition: (action: ProjectAction, status: ProjectStatus) =>
    (PROJECT_TRANSITIONS[action].from as readonly ProjectStatus[]).includes(status),
} as const;

/** The statuses in which the project's fields may be edited (for conditional updates). */
export const EDITABLE_STATUSES: readonly ProjectStatus[] = PROJECT_STATUSES.filter(projectRules.edit);
