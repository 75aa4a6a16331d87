import { createScenarioInput, type Scenario, setQuotaSizeInput } from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';
import { translateMessage } from '../../i18n/messages.ts';

/** What the scenario inputs hold; the quota input holds '' while empty and its own text while partial. */
export interface ScenarioValues {
  description: string;
  campaign_ids: string[];
  is_random_order: boolean;
  is_use_face_checker: boolean;
  is_paid: boolean;
  /** The questionnaires of its slots (ids), or none. */
  screener_survey_id: string | null;
  embedded_survey_id: string | null;
  quota: number | string;
  redirect_links: { complete: string; quota_full: string; screen_out: string };
}

export function scenarioValues(scenario: Scenario | null): ScenarioValues {
  return {
    description: scenario?.description ?? '',
    campaign_ids: scenario?.campaigns.map((c) => c.id) ?? [],
    is_random_order: scenario?.is_random_order ?? false,
    is_use_face_checker: scenario?.is_use_face_checker ?? true,
    is_paid: scenario?.is_paid ?? false,
    screener_survey_id: scenario?.screener_survey_id ?? null,
    embedded_survey_id: scenario?.embedded_survey_id ?? null,
    quota: scenario?.quota ?? '',
    redirect_links: {
      complete: scenario?.redirect_links.complete ?? '',
      quota_full: scenario?.redirect_links.quota_full ?? '',
      screen_out: scenario?.redirect_links.screen_out ?? '',
    },
  };
}

/**
 * An empty number input is "not set" (null); any other text goes as it is, so that the contract
 * refuses it with the field's message instead of the form changing it ('-5' stays -5).
 */
export function numberOrNull(value: number | string): unknown {
  if (typeof value === 'number') return value;
  return value.trim() === '' ? null : value;
}

/** The values in the shape of `createScenarioInput` (and of an update, without its `updated_at`). */
export function scenarioInput(values: ScenarioValues) {
  return {
    description: values.description,
    campaign_ids: values.campaign_ids,
    is_random_order: values.is_random_order,
    is_use_face_checker: values.is_use_face_checker,
    is_paid: values.is_paid,
    screener_survey_id: values.screener_survey_id,
    embedded_survey_id: values.embedded_survey_id,
    quota: numberOrNull(values.quota),
    redirect_links: {
      complete: values.redirect_links.complete.trim(),
      quota_full: values.redirect_links.quota_full.trim(),
      screen_out: values.redirect_links.screen_out.trim(),
    },
  };
}

/** The message for a number input holding text that is no number (say, a lone '-'). */
const notANumber = () => translateMessage({ key: 'validation.wholeNumber' });

/** The first message of each path of a failed parse, translated. */
function issueErrors(error: z.ZodError): FormErrors {
  const errors: FormErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.');
    if (path && !(path in errors)) errors[path] = translateMessage(issue.message);
  }
  return errors;
}

/** The Mantine validator of the scenario form: the contract's own schema, its messages translated. */
export function scenarioValidator(): (values: ScenarioValues) => FormErrors {
  return (values) => {
    const result = createScenarioInput.safeParse(scenarioInput(values));
    const errors = result.success ? {} : issueErrors(result.error);
    if (typeof numberOrNull(values.quota) === 'string') errors.quota = notANumber();
    return errors;
  };
}

/** The quota size of a quota link, checked by its contract: the size, or the field's message. */
export function parseQuotaSize(value: number | string): { quota_size: number | null } | { error: string } {
  if (typeof numberOrNull(value) === 'string') return { error: notANumber() };
  const result = setQuotaSizeInput.safeParse({ quota_size: numberOrNull(value) });
  if (result.success) return result.data;
  return { error: String(issueErrors(result.error).quota_size ?? '') };
}
