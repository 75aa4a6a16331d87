import type { Language, Research } from '@emolens/contracts';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { openDeleteConfirm } from '../../components/confirm-delete.tsx';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { useServerVersion } from '../../components/use-server-version.ts';
import { errorMessage } from '../errors/notify.ts';
import { closeSaveErrors, notifySaveInvalid, type SaveErrorTarget, showSaveError } from '../errors/save-errors.ts';
import {
  RULE_MESSAGES,
  useCreateResearch,
  useDeleteResearch,
  useDraftProjects,
  useForgetResearch,
  useUpdateResearch,
} from './api.ts';
import { researchPath } from './paths.ts';
import {
  emptyResearchValues,
  isFormPath,
  parseCreate,
  parseUpdate,
  type ResearchFormValues,
  researchValidator,
  researchValues,
  serverFieldErrors,
} from './research-form.ts';

export interface EditorOptions {
  research: Research | null;
  refetch: () => Promise<{ data?: Research | undefined }>;
  projectParam: string | null;
  contentless: boolean;
}

/**
 * The state of the research form: its values (from the research, or a new one), the version it was
 * filled from, and create, save, discard and delete with their answers.
 */
export function useResearchEditor({ research, refetch, projectParam, contentless }: EditorOptions) {
  const { t } = useTranslation('researches');
  const navigate = useNavigate();
  const mode = research ? 'edit' : 'create';
  const drafts = useDraftProjects();
  const create = useCreateResearch();
  const update = useUpdateResearch(research?.id ?? '');
  const remove = useDeleteResearch(research?.id ?? '');
  const forget = useForgetResearch();
  const form = useForm<ResearchFormValues>({
    mode: 'controlled',
    initialValues: research
      ? researchValues(research)
      : emptyResearchValues(projectParam, contentless ? 'contentless' : null),
    validate: researchValidator(mode),
    validateInputOnBlur: true,
  });

  const { base, conflict, setConflict, fill } = useServerVersion(form, research, researchValues, (c) => c.can_edit);

  const editable = research ? research.can_edit : true;
  const dirty = editable && form.isDirty();
  const guard = useLeaveGuard(dirty);
  const busy = create.isPending || update.isPending || remove.isPending;

  const draftItems = drafts.data?.items ?? [];
  const chosenProject = draftItems.find((p) => p.id === form.values.project_id);
  // A project from the address that is not one of the user's drafts cannot take a research.
  const projectUnavailable =
    mode === 'create' && !!form.values.project_id && drafts.isSuccess && chosenProject === undefined;
  useTaskLanguageDefault(form, mode === 'create' ? chosenProject?.respondent_language : undefined);

  const reload = async () => {
    const result = await refetch();
    if (result.data) fill(result.data);
  };

  const showError = (error: unknown) => showSaveError(error, saveErrorTarget(form));

  const createResearch = (values: ResearchFormValues) => {
    if (!values.project_id || projectUnavailable) {
      form.setFieldError('project_id', t('form.projectNotDraft'));
      notifySaveInvalid();
      return;
    }
    create.mutate(
      { projectId: values.project_id, data: parseCreate(values) },
      {
        onSuccess: (created) => {
          closeSaveErrors();
          guard.allowLeave();
          navigate(researchPath(created), { replace: true });
          notifications.show({ color: 'green', message: t(`form.created.${created.content_type}`), autoClose: 5000 });
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'invalid_state') void drafts.refetch();
          showError(error);
        },
      },
    );
  };

  const saveResearch = (values: ResearchFormValues) =>
    update.mutate(
      { ...parseUpdate(values), updated_at: base },
      {
        onSuccess: (saved) => {
          fill(saved);
          closeSaveErrors();
          notifications.show({ color: 'green', message: t('form.saved'), autoClose: 4000 });
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'conflict') {
            setConflict(errorMessage(error));
            return;
          }
          if (error instanceof ApiRequestError && error.code === 'invalid_state') void refetch();
          showError(error);
        },
      },
    );

  const save = form.onSubmit(mode === 'create' ? createResearch : saveResearch, () => notifySaveInvalid());

  const confirmDelete = () => {
    if (!research) return;
    openDeleteConfirm({
      t,
      title: research.title,
      testId: 'confirm-delete',
      onConfirm: () =>
        remove.mutateAsync(undefined, {
          onSuccess: () => {
            guard.allowLeave();
            navigate('/cabinet/campaigns');
            forget(research.id);
            notifications.show({ color: 'green', message: t('delete.done', { title: research.title }) });
          },
          onError: showError,
        }),
    });
  };

  return {
    mode,
    form,
    editable,
    dirty,
    conflict,
    guard,
    drafts: draftItems,
    chosenProject,
    projectUnavailable,
    pending: { save: create.isPending || update.isPending, remove: remove.isPending, any: busy },
    save,
    discard: () => research && fill(research),
    reload,
    confirmDelete,
  } as const;
}

export type ResearchEditorState = ReturnType<typeof useResearchEditor>;

/**
 * A new research's task language is its project's respondent language (the contract's own default
 * is Russian), until the user picks another. It follows a change of project; the form stays clean.
 */
function useTaskLanguageDefault(form: UseFormReturnType<ResearchFormValues>, language: Language | undefined) {
  const applied = useRef(form.getValues().settings.currentTaskLang);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the project's language only
  useEffect(() => {
    if (!language || form.getValues().settings.currentTaskLang !== applied.current) return;
    const wasDirty = form.isDirty();
    form.setFieldValue('settings.currentTaskLang', language);
    applied.current = language;
    if (!wasDirty) form.resetDirty();
  }, [language]);
}

/** The research form's side of a failed save (the shared handling is in errors/save-errors.ts). */
export function saveErrorTarget(form: UseFormReturnType<ResearchFormValues>): SaveErrorTarget {
  return {
    setErrors: form.setErrors,
    fieldErrors: serverFieldErrors,
    isOnForm: (path) => isFormPath(path, form.getValues()),
    // The research rules and the launched project have their own words.
    ownWords: (error) =>
      RULE_MESSAGES.includes(error.ref.key) || error.code === 'invalid_state' ? errorMessage(error) : undefined,
  };
}
