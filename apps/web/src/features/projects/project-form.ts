import {
  type AudienceType,
  createProjectInput,
  type FlowType,
  type Language,
  type Platform,
  type Project,
  type RetentionMode,
  updateProjectInput,
} from '@emolens/contracts';
import { type FormErrors, useForm } from '@mantine/form';
import type { z } from 'zod';
import { translateMessage } from '../../i18n/messages.ts';

/** What the project inputs hold: selects are empty (null) until chosen, an empty number input is ''. */
export interface ProjectFormValues {
  title: string;
  description: string;
  platform: Platform | null;
  respondent_language: Language | null;
  audience_type: AudienceType | null;
  required_respondents: number | string;
}

export interface NewProjectFormValues extends ProjectFormValues {
  flow_type: FlowType | null;
}

/** Client validation of the project page: the contract's update fields, `updated_at` aside. */
export const editProjectSchema = updateProjectInput.omit({ updated_at: true });
/** Client validation of the create dialog and the wizard. */
export const newProjectSchema = createProjectInput;

export function emptyProjectValues(flowType: FlowType | null = null): NewProjectFormValues {
  return {
    flow_type: flowType,
    title: '',
    description: '',
    platform: null,
    respondent_language: null,
    audience_type: null,
    required_respondents: '',
  };
}

export function projectValues(project: Project): ProjectFormValues {
  return {
    title: project.title,
    description: project.description,
    platform: project.platform,
    respondent_language: project.respondent_language,
    audience_type: project.audience_type,
    required_respondents: project.required_respondents ?? '',
  };
}

function count(value: number | string): number | null {
  if (typeof value === 'number') return value;
  return value.trim() === '' ? null : Number(value);
}

/**
 * The values in the shape of the contract, for its schema to check and clean. An empty select stays
 * null, not undefined: the update schema's optional fields would let undefined through.
 */
export function projectInput(values: ProjectFormValues): Record<string, unknown> {
  return {
    title: values.title,
    description: values.description,
    platform: values.platform,
    respondent_language: values.respondent_language,
    audience_type: values.audience_type,
    required_respondents: count(values.required_respondents),
  };
}

export function newProjectInput(values: NewProjectFormValues): Record<string, unknown> {
  return { ...projectInput(values), flow_type: values.flow_type };
}

/**
 * A Mantine form validator from a shared zod schema: the first message of each field, translated.
 * Fields left empty fail with the contract's own messages, since the contract requires them.
 */
export function schemaValidator<V>(schema: z.ZodType, toInput: (values: V) => unknown): (values: V) => FormErrors {
  return (values) => {
    const result = schema.safeParse(toInput(values));
    if (result.success) return {};
    const errors: FormErrors = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      if (path && !(path in errors)) errors[path] = translateMessage(issue.message);
    }
    return errors;
  };
}

/** The new project's form, the create dialog's and the wizard's: empty, checked against the create contract. */
export function useNewProjectForm() {
  return useForm<NewProjectFormValues>({
    mode: 'controlled',
    initialValues: emptyProjectValues(),
    validate: schemaValidator(newProjectSchema, newProjectInput),
  });
}

/** The create call's body from the new project form's (valid) values. */
export const newProjectBody = (values: NewProjectFormValues) => newProjectSchema.parse(newProjectInput(values));

/** What the retention inputs hold: an empty number input is ''. */
export interface RetentionValues {
  retention_mode: RetentionMode;
  retention_days: number | string;
}

export const retentionValues = (project: Project): RetentionValues => ({
  retention_mode: project.retention.mode,
  retention_days: project.retention.days ?? '',
});

/** The values in the shape of the contract (days only for the mode that needs them). */
export const toRetentionInput = (values: RetentionValues) => ({
  retention_mode: values.retention_mode,
  retention_days:
    values.retention_mode !== 'delete_after_days'
      ? null
      : typeof values.retention_days === 'number'
        ? values.retention_days
        : values.retention_days.trim() === ''
          ? null
          : Number(values.retention_days),
});
