import type { CreateProjectInput, ResearchDataInput } from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { errorMessage } from '../errors/notify.ts';
import { useCreateResearch } from '../researches/api.ts';
import { researchPath } from '../researches/paths.ts';
import { useCreateProject } from './api.ts';
import { closeSaveErrors, showSaveError } from './save-errors.ts';

/**
 * The wizard's "Create project": the project, then its first research (when one was chosen, with
 * `from_wizard`), then the research's page, or the project's page when there is none.
 */
export function useWizardCreate({
  setErrors,
  onCreated,
}: {
  setErrors: (errors: FormErrors) => void;
  /** The project exists: the wizard may be left without asking. */
  onCreated: () => void;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation('researches');
  const navigate = useNavigate();
  const create = useCreateProject();
  const createResearch = useCreateResearch();

  const researchFailed = (error: unknown) => {
    if (error instanceof ApiRequestError && error.isAuthError) return;
    const reason = errorMessage(error);
    notifications.show({ color: 'red', message: t('wizard.research.failed', { reason }), autoClose: 10_000 });
  };

  const start = (project: CreateProjectInput, data: ResearchDataInput | null) =>
    create.mutate(project, {
      onSuccess: (created) => {
        closeSaveErrors();
        onCreated();
        const projectPage = `/cabinet/projects/${created.id}`;
        if (!data) return navigate(projectPage, { replace: true });
        createResearch.mutate(
          { projectId: created.id, data, fromWizard: true },
          {
            onSuccess: (research) => {
              navigate(researchPath(research), { replace: true });
              const message = tc(`form.created.${research.content_type}`);
              notifications.show({ color: 'green', message, autoClose: 5000 });
            },
            // The project exists: its page is where the research can be added again.
            onError: (error) => {
              navigate(projectPage, { replace: true });
              researchFailed(error);
            },
          },
        );
      },
      onError: (error) => showSaveError(error, setErrors),
    });

  return { start, pending: create.isPending || createResearch.isPending, created: create.isSuccess };
}
