import {
  type addNewCampaignInput,
  CAMPAIGN_MESSAGES,
  type Campaign,
  campaignSettingsSchema,
  type listCampaignsQuery,
  type updateCampaignDataInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import { isUuid } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import { scopeOf } from '../projects/projects.service.ts';
import type { CampaignsRepository, CampaignWithProject } from './campaigns.repository.ts';

export interface CampaignsDeps {
  campaigns: CampaignsRepository;
  projects: ProjectsRepository;
}

export function toCampaign(row: CampaignWithProject): Campaign {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content_type: row.content_type,
    status: row.status,
    project: { id: row.project_id, title: row.project_title, status: row.project_status },
    site_url: row.site_url,
    categories: row.categories,
    // Settings stored by an older version get the defaults of the fields added since.
    settings: campaignSettingsSchema.parse(row.settings),
    is_self_service: row.is_self_service,
    is_new_user_flow: row.is_new_user_flow,
    created_by: row.created_by,
    modified_by: row.modified_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    // Recordings and reports arrive with later work: none exist yet.
    video_count: 0,
    report_count: 0,
    latest_engagement: null,
    can_edit: row.project_status === 'new',
  };
}

export async function getCampaign(deps: CampaignsDeps, user: User, id: string): Promise<Campaign> {
  const row = isUuid(id) ? await deps.campaigns.findVisible(id, scopeOf(user)) : undefined;
  if (!row) throw new AppError('not_found', { message: 'Unable to get campaign data. Please, reload the page.' });
  return toCampaign(row);
}

export async function listCampaigns(deps: CampaignsDeps, user: User, query: z.output<typeof listCampaignsQuery>) {
  if (query.project_id && !isUuid(query.project_id)) {
    return { items: [], total: 0, page: query.page, page_size: query.page_size };
  }
  const page = await deps.campaigns.list(scopeOf(user), {
    projectId: query.project_id,
    search: query.search || undefined,
    contentType: query.content_type,
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return { items: page.items.map(toCampaign), total: page.total, page: query.page, page_size: query.page_size };
}

/** Adds researches to a draft project of the user's (spec sections 5 and 7). */
export async function addNewCampaigns(
  deps: CampaignsDeps,
  user: User,
  input: z.output<typeof addNewCampaignInput>,
): Promise<Campaign[]> {
  const project = isUuid(input.project_id)
    ? await deps.projects.findVisible(input.project_id, scopeOf(user))
    : undefined;
  // A rule of the form, not a lost session: 400, so the cabinet does not send the user to log in.
  if (!project) {
    throw new AppError('validation_failed', {
      message: CAMPAIGN_MESSAGES.notInOwnProject,
      fields: { project_id: CAMPAIGN_MESSAGES.notInOwnProject },
    });
  }
  if (project.status !== 'new') throw new AppError('invalid_state', { message: CAMPAIGN_MESSAGES.frozen });
  const fields: Record<string, string> = {};
  input.campaigns_data.forEach((data, i) => {
    if (data.content_type === 'shelf' && !input.from_wizard) {
      fields[`campaigns_data.${i}.content_type`] = CAMPAIGN_MESSAGES.shelfOnlyInWizard;
    }
  });
  if (user.is_armi_user) {
    input.campaigns_data.forEach((data, i) => {
      if (data.content_type === 'contentless') {
        fields[`campaigns_data.${i}.content_type`] = CAMPAIGN_MESSAGES.contentlessForbidden;
      }
    });
  }
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
  const ids = await deps.campaigns.insertMany(
    input.campaigns_data.map((data) => ({
      project_id: project.id,
      title: data.title,
      description: data.description,
      content_type: data.content_type,
      site_url: data.site_url,
      categories: data.categories,
      settings: data.settings,
      is_new_user_flow: project.flow_type === 'new',
      created_by: user.id,
      modified_by: user.id,
    })),
  );
  return Promise.all(ids.map((id) => getCampaign(deps, user, id)));
}

/** Edits a research of a draft project; 409 when it changed since `updated_at` or the project is launched. */
export async function updateCampaignData(
  deps: CampaignsDeps,
  user: User,
  id: string,
  input: z.output<typeof updateCampaignDataInput>,
): Promise<Campaign> {
  const current = await getCampaign(deps, user, id);
  if (!current.can_edit) throw new AppError('invalid_state', { message: CAMPAIGN_MESSAGES.frozen });
  const { updated_at, categories, settings, ...rest } = input;
  const applied = await deps.campaigns.update(id, new Date(updated_at), {
    ...rest,
    modified_by: user.id,
    ...(categories ? { categories: { ...current.categories, ...categories } } : {}),
    ...(settings ? { settings: campaignSettingsSchema.parse({ ...current.settings, ...settings }) } : {}),
  });
  if (!applied) {
    const now = await getCampaign(deps, user, id);
    throw now.can_edit
      ? new AppError('conflict')
      : new AppError('invalid_state', { message: CAMPAIGN_MESSAGES.frozen });
  }
  return getCampaign(deps, user, id);
}

export async function deleteCampaign(deps: CampaignsDeps, user: User, id: string): Promise<void> {
  await getCampaign(deps, user, id);
  if (!(await deps.campaigns.deleteInDraftProject(id))) {
    throw new AppError('invalid_state', { message: CAMPAIGN_MESSAGES.frozen });
  }
}
