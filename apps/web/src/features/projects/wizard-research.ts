import {
  CONTENT_TYPES,
  type ContentType,
  type Language,
  type ResearchDataInput,
  researchDataInput,
} from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import { translateMessage } from '../../i18n/messages.ts';

/** The wizard's optional first research: no content type means none is made. */
export interface WizardResearchValues {
  content_type: ContentType | null;
  title: string;
}

export const emptyWizardResearch = (): WizardResearchValues => ({ content_type: null, title: '' });

/** The content types this user may choose in the wizard (an ARMI user makes no contentless research). */
export function wizardContentTypes(isArmi: boolean): ContentType[] {
  return CONTENT_TYPES.filter((type) => !(type === 'contentless' && isArmi));
}

/** The research in the shape of `researchDataInput`; its tasks are in the project's respondent language. */
function researchInput(values: WizardResearchValues, language: Language | null) {
  return {
    title: values.title,
    content_type: values.content_type,
    ...(language ? { settings: { currentTaskLang: language } } : {}),
  };
}

/** The research to create with the project, or null when none was chosen. */
export function parseWizardResearch(values: WizardResearchValues, language: Language | null): ResearchDataInput | null {
  if (!values.content_type) return null;
  return researchDataInput.parse(researchInput(values, language));
}

/** The research step's validator: the contract's own rules. */
export function wizardResearchValidator(): (values: WizardResearchValues) => FormErrors {
  return (values) => {
    if (!values.content_type) return {};
    const result = researchDataInput.safeParse(researchInput(values, null));
    const errors: FormErrors = {};
    for (const issue of result.error?.issues ?? []) {
      const path = issue.path.join('.');
      if (path && !(path in errors)) errors[path] = translateMessage(issue.message);
    }
    return errors;
  };
}
