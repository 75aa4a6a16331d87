import {
  type ContentType,
  categoriesSchema,
  msg,
  type PictureGallery,
  type Research,
  type ResearchDataInput,
  type ResearchSettings,
  researchDataInput,
  researchSettingsSchema,
  type ShelfDisplay,
  type ShelfSetting,
  updateResearchDataInput,
  videoOnDeviceRefusal,
} from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';
import { translateMessage } from '../../i18n/messages.ts';

export type Categories = z.infer<typeof categoriesSchema>;

/** The number settings: their inputs hold '' while empty. */
export const NUMBER_SETTINGS = [
  'badFramesPercent',
  'bannerTime',
  'taskTimeLimitSeconds',
  'contentVideoDuration',
  'validationThresholdPercent',
] as const;
type NumberSetting = (typeof NUMBER_SETTINGS)[number];

export type SettingsValues = Omit<ResearchSettings, NumberSetting> & Record<NumberSetting, number | string>;

/** What the research inputs hold. `project_id` is chosen only when creating. */
export interface ResearchFormValues {
  project_id: string | null;
  title: string;
  description: string;
  content_type: ContentType | null;
  site_url: string;
  categories: Categories;
  settings: SettingsValues;
  /** Content of a saved research (pictures, shelf); tasks of a site are in `settings.webResourceScenario`. */
  picture_gallery: PictureGallery;
  shelf_content_scenario: ShelfDisplay[];
  shelf_setting: ShelfSetting;
}

/** A new research: the contract's defaults (spec section 9: 25 % bad frames, banner 10 s, task 60 s). */
export function emptyResearchValues(projectId: string | null, contentType: ContentType | null): ResearchFormValues {
  return {
    project_id: projectId,
    title: '',
    description: '',
    content_type: contentType,
    site_url: '',
    categories: categoriesSchema.parse({}),
    settings: researchSettingsSchema.parse({}),
    picture_gallery: { items: [] },
    shelf_content_scenario: [],
    shelf_setting: { isRandomOrder: false },
  };
}

export function researchValues(research: Research): ResearchFormValues {
  return {
    project_id: research.project.id,
    title: research.title,
    description: research.description,
    content_type: research.content_type,
    site_url: research.site_url,
    categories: { ...research.categories },
    settings: { ...research.settings, cint_options: { ...research.settings.cint_options } },
    picture_gallery: research.picture_gallery,
    shelf_content_scenario: research.shelf_content_scenario,
    shelf_setting: research.shelf_setting,
  };
}

function settingsInput(settings: SettingsValues): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  for (const key of NUMBER_SETTINGS) {
    const value = settings[key];
    out[key] = typeof value === 'number' ? value : value.trim() === '' ? null : Number(value);
  }
  return out;
}

/** The values in the shape of `researchDataInput` (create). A site address goes only with a site. */
export function createInput(values: ResearchFormValues): Record<string, unknown> {
  return {
    title: values.title,
    description: values.description,
    content_type: values.content_type,
    site_url: values.content_type === 'site' ? values.site_url : '',
    categories: values.categories,
    settings: settingsInput(values.settings),
  };
}

/**
 * The values in the shape of `updateCampaignDataInput` without `updated_at` (edit; the content type
 * stays). Content goes with the type it belongs to.
 */
export function updateInput(values: ResearchFormValues): Record<string, unknown> {
  return {
    title: values.title,
    description: values.description,
    ...(values.content_type === 'site' ? { site_url: values.site_url } : {}),
    categories: values.categories,
    settings: settingsInput(values.settings),
    ...(values.content_type === 'pictures' ? { picture_gallery: values.picture_gallery } : {}),
    ...(values.content_type === 'shelf'
      ? { shelf_content_scenario: values.shelf_content_scenario, shelf_setting: values.shelf_setting }
      : {}),
  };
}

export const editResearchSchema = updateResearchDataInput.omit({ updated_at: true });

export function parseCreate(values: ResearchFormValues): ResearchDataInput {
  return researchDataInput.parse(createInput(values));
}

export function parseUpdate(values: ResearchFormValues): z.output<typeof editResearchSchema> {
  return editResearchSchema.parse(updateInput(values));
}

/**
 * The Mantine validator of the research form: the contract's own schema (so the title's
 * invalid-characters rule is the server's), with the first message of each field, translated.
 */
export function researchValidator(mode: 'create' | 'edit'): (values: ResearchFormValues) => FormErrors {
  return (values) => {
    const errors: FormErrors = {};
    if (mode === 'create' && !values.project_id) errors.project_id = translateMessage(msg('validation.required'));
    for (const key of NUMBER_SETTINGS) {
      const value = values.settings[key];
      if (typeof value === 'string' && value.trim() === '') {
        errors[`settings.${key}`] = translateMessage(msg('validation.required'));
      }
    }
    // Privacy mode runs the single-face engine in the browser (decision 064): the server's rule, said at once.
    const onDevice = videoOnDeviceRefusal(values.settings);
    if (onDevice) errors['settings.videoOnDevice'] = translateMessage(msg(onDevice));
    const schema = mode === 'create' ? researchDataInput : editResearchSchema;
    const result = schema.safeParse(mode === 'create' ? createInput(values) : updateInput(values));
    if (!result.success) {
      for (const issue of result.error.issues) {
        const path = issue.path.join('.');
        if (path && !(path in errors)) errors[path] = translateMessage(issue.message);
      }
    }
    return errors;
  };
}

/**
 * The server's field messages of a 400 (translated), on the form's own paths:
 * `campaigns_data.0.settings.badFramesPercent` (create) and `settings.badFramesPercent` (update) are
 * both `settings.badFramesPercent`.
 */
export function serverFieldErrors(fields: Record<string, string>): FormErrors {
  return Object.fromEntries(
    Object.entries(fields).map(([field, message]) => [field.replace(/^campaigns_data\.\d+\./, ''), message]),
  );
}

/** The form paths a server error may name; anything else is shown as a notification. */
export function isFormPath(path: string, values: ResearchFormValues): boolean {
  let node: unknown = values;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}
