import {
  type addNewResearchInput,
  galleryWith,
  isFigmaLink,
  type listResearchesQuery,
  type MessageKey,
  type PictureGallery,
  type Research,
  researchSettingsSchema,
  scenarioDeviceRefusal,
  storedResearchSettings,
  type updateResearchDataInput,
  videoOnDeviceRefusal,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { checkAccess, requireAccess, researchRefusal, scopeOf } from '../access/access.ts';
import { checkedCategories } from '../benchmarks/benchmarks.service.ts';
import type { ResearchMedia } from '../media/media.repository.ts';
import { projectRules } from '../projects/project-rules.ts';
import { researchStatus } from './research-status.ts';
import type { ResearchWithProject } from './researches.repository.ts';

export type ResearchesDeps = Pick<Deps, 'access' | 'researches' | 'projects' | 'media' | 'benchmarks'>;

/** The gallery of a pictures research is every picture uploaded to it (see `galleryWith`). */
export function galleryOf(row: ResearchWithProject, media: readonly ResearchMedia[]): PictureGallery {
  if (row.content_type !== 'pictures') return row.picture_gallery;
  const pictures = media.filter((m) => m.campaign_id === row.id && m.kind === 'image').map((m) => m.id);
  return galleryWith(row.picture_gallery, pictures);
}

export function toResearch(row: ResearchWithProject, media: readonly ResearchMedia[]): Research {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content_type: row.content_type,
    status: researchStatus(row.status, row.project_status, {
      processes: row.video_count,
      running: row.running_count,
      rerunning: row.rerunning_count,
      failed: row.failed_count,
    }),
    project: {
      id: row.project_id,
      title: row.project_title,
      status: row.project_status,
      platform: row.project_platform,
    },
    site_url: row.site_url,
    categories: row.categories,
    // Settings stored by an older version get the defaults of the fields added since.
    settings: researchSettingsSchema.parse(row.settings),
    picture_gallery: galleryOf(row, media),
    shelf_content_scenario: row.shelf_content_scenario,
    shelf_setting: row.shelf_setting,
    is_self_service: row.is_self_service,
    is_new_user_flow: row.is_new_user_flow,
    created_by: row.created_by,
    modified_by: row.modified_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    video_count: row.video_count,
    report_count: row.report_count,
    latest_engagement: row.mean_engagement === null ? null : Math.round(row.mean_engagement * 10_000) / 10_000,
    can_edit: projectRules.editSetup(row.project_status),
  };
}

/** The research, when the user may see it, with its files. */
async function loadResearch(deps: ResearchesDeps, user: User, id: string) {
  await requireAccess(deps.access, user, 'campaign.manage', id);
  const [row] = await deps.researches.listByIds([id]);
  if (!row) throw new AppError('not_found', { message: 'campaign.notFound' });
  const media = await deps.media.listForResearches([row.id]);
  return { research: toResearch(row, media), media };
}

export async function getResearch(deps: ResearchesDeps, user: User, id: string): Promise<Research> {
  return (await loadResearch(deps, user, id)).research;
}

export async function listResearches(deps: ResearchesDeps, user: User, query: z.output<typeof listResearchesQuery>) {
  // A project the user may not act on has, for them, no researches.
  if (query.project_id && !(await checkAccess(deps.access, user, 'project.manage', [query.project_id])).size) {
    return { items: [], total: 0, page: query.page, page_size: query.page_size };
  }
  const page = await deps.researches.list(scopeOf(user), {
    projectId: query.project_id,
    search: query.search || undefined,
    contentType: query.content_type,
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  const media = await deps.media.listForResearches(page.items.map((row) => row.id));
  return {
    items: page.items.map((row) => toResearch(row, media)),
    total: page.total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** Adds researches to a draft project of the user's (spec sections 5 and 7). */
export async function addNewResearches(
  deps: ResearchesDeps,
  user: User,
  input: z.output<typeof addNewResearchInput>,
): Promise<Research[]> {
  const allowed = await checkAccess(deps.access, user, 'project.manage', [input.project_id]);
  const project = allowed.size ? await deps.projects.find(input.project_id) : undefined;
  // A rule of the form, not a lost session: 400, so the cabinet does not send the user to log in.
  if (!project) {
    throw new AppError('validation_failed', {
      message: 'campaign.notInOwnProject',
      fields: { project_id: 'campaign.notInOwnProject' },
    });
  }
  if (!projectRules.editSetup(project.status)) {
    throw new AppError('invalid_state', { message: 'campaign.frozen' });
  }
  const fields: Record<string, MessageKey> = {};
  input.campaigns_data.forEach((data, i) => {
    if (data.content_type === 'shelf' && !input.from_wizard) {
      fields[`campaigns_data.${i}.content_type`] = 'campaign.shelfOnlyInWizard';
    }
  });
  input.campaigns_data.forEach((data, i) => {
    // Screenshots are uploaded to a saved research: a new one has none to name yet.
    data.settings.webResourceScenario.forEach((_, j) => {
      fields[`campaigns_data.${i}.settings.webResourceScenario.${j}.image`] = 'content.imageUnknown';
    });
    if (notAFigmaLink(data.settings.isFigma, data.site_url)) {
      fields[`campaigns_data.${i}.site_url`] = 'content.figmaUrl';
    }
    const onDevice = videoOnDeviceRefusal(data.settings);
    if (onDevice) fields[`campaigns_data.${i}.settings.videoOnDevice`] = onDevice;
  });
  input.campaigns_data.forEach((data, i) => {
    const refusal = researchRefusal(user, data.content_type);
    if (refusal) fields[`campaigns_data.${i}.content_type`] = refusal;
  });
  const categories = await Promise.all(
    input.campaigns_data.map(async (data, i) => {
      const checked = await checkedCategories(deps, data.categories, null, data.content_type);
      for (const [path, key] of Object.entries(checked.fields)) fields[`campaigns_data.${i}.${path}`] = key;
      return { ...data.categories, ...checked.categories };
    }),
  );
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
  const ids = await deps.researches.insertMany(
    input.campaigns_data.map((data, i) => ({
      project_id: project.id,
      title: data.title,
      description: data.description,
      content_type: data.content_type,
      site_url: data.site_url,
      categories: categories[i] ?? data.categories,
      settings: { ...data.settings, currentTaskLang: data.settings.currentTaskLang ?? project.respondent_language },
      is_new_user_flow: project.flow_type === 'new',
      created_by: user.id,
      modified_by: user.id,
    })),
  );
  return Promise.all(ids.map((id) => getResearch(deps, user, id)));
}

/** Edits a research of a draft project; 409 when it changed since `updated_at` or the project is launched. */
export async function updateResearchData(
  deps: ResearchesDeps,
  user: User,
  id: string,
  input: z.output<typeof updateResearchDataInput>,
): Promise<Research> {
  const { research: current, media } = await loadResearch(deps, user, id);
  if (!current.can_edit) throw new AppError('invalid_state', { message: 'campaign.frozen' });
  const { updated_at, categories, settings, ...rest } = input;
  const merged = {
    site_url: rest.site_url ?? current.site_url,
    settings: settings ? researchSettingsSchema.parse({ ...current.settings, ...settings }) : undefined,
  };
  // Privacy mode runs the single-face engine in the browser (decision 064): checked on the settings as they will be.
  const onDevice = merged.settings && videoOnDeviceRefusal(merged.settings);
  if (onDevice) throw new AppError('validation_failed', { fields: { 'settings.videoOnDevice': onDevice } });
  // Nor beside one of its scenarios' other researches: they share the recording (decision 072).
  if (merged.settings && (merged.settings.videoOnDevice || merged.settings.multiFacesMode)) {
    const others = await deps.researches.scenarioNeighbourSettings(id);
    const own = merged.settings;
    const mixed = scenarioDeviceRefusal([own, ...others.map(storedResearchSettings)]);
    if (mixed) {
      const field = own.videoOnDevice ? 'settings.videoOnDevice' : 'settings.multiFacesMode';
      throw new AppError('validation_failed', { message: mixed, fields: { [field]: mixed } });
    }
  }
  checkContent(media, {
    picture_gallery: input.picture_gallery,
    shelf_content_scenario: input.shelf_content_scenario,
    web_tasks: settings?.webResourceScenario,
    figma:
      settings || rest.site_url !== undefined
        ? { site_url: merged.site_url, isFigma: (merged.settings ?? current.settings).isFigma }
        : undefined,
  });
  const checked = await checkedCategories(deps, categories ?? {}, current, current.content_type);
  if (Object.keys(checked.fields).length) throw new AppError('validation_failed', { fields: checked.fields });
  const changed = Object.keys(checked.categories).length > 0;
  const applied = await deps.researches.update(id, new Date(updated_at), {
    ...rest,
    modified_by: user.id,
    ...(changed ? { categories: { ...current.categories, ...checked.categories } } : {}),
    ...(merged.settings ? { settings: merged.settings } : {}),
  });
  if (!applied) {
    const now = await getResearch(deps, user, id);
    throw now.can_edit ? new AppError('conflict') : new AppError('invalid_state', { message: 'campaign.frozen' });
  }
  return getResearch(deps, user, id);
}

/** A research showing a Figma prototype must link to one (while the link is still empty, nothing to check). */
function notAFigmaLink(isFigma: boolean, siteUrl: string): boolean {
  return isFigma && siteUrl !== '' && !isFigmaLink(siteUrl);
}

/**
 * Rules across fields the schemas cannot see: every image the content names is a picture uploaded
 * to this research, and a Figma research links to a Figma prototype.
 */
function checkContent(
  media: readonly ResearchMedia[],
  next: Pick<z.output<typeof updateResearchDataInput>, 'picture_gallery' | 'shelf_content_scenario'> & {
    web_tasks: Research['settings']['webResourceScenario'] | undefined;
    /** Checked when the link or the settings change. */
    figma: { site_url: string; isFigma: boolean } | undefined;
  },
): void {
  const images = new Set(media.filter((m) => m.kind === 'image').map((m) => m.id));
  const fields: Record<string, MessageKey> = {};
  const named: [string, { image: string }[] | undefined][] = [
    ['picture_gallery.items', next.picture_gallery?.items],
    ['shelf_content_scenario', next.shelf_content_scenario],
    ['settings.webResourceScenario', next.web_tasks],
  ];
  for (const [path, list] of named) {
    list?.forEach((entry, i) => {
      if (!images.has(entry.image)) fields[`${path}.${i}.image`] = 'content.imageUnknown';
    });
  }
  if (next.figma && notAFigmaLink(next.figma.isFigma, next.figma.site_url)) {
    fields.site_url = 'content.figmaUrl';
  }
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
}

export async function deleteResearch(deps: ResearchesDeps, user: User, id: string): Promise<void> {
  await getResearch(deps, user, id);
  if (!(await deps.researches.deleteInDraftProject(id))) {
    throw new AppError('invalid_state', { message: 'campaign.frozen' });
  }
}
