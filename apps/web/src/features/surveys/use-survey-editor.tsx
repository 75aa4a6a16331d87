import type { Language, Survey } from '@emolens/contracts';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { errorMessage } from '../errors/notify.ts';
import { closeSaveErrors, notifySaveInvalid, showSaveError } from '../errors/save-errors.ts';
import { useUpdateSurvey } from './api.ts';
import { SURVEYS_PATH, surveyPath } from './paths.ts';
import {
  draftOf,
  draftProblems,
  droppedConditions,
  type SurveyAction,
  type SurveyDraft,
  surveyReducer,
  updateBody,
} from './survey-draft.ts';
import { useSurveyActions } from './use-survey-actions.ts';

/** A server field path the editor shows in place (the others become notifications). */
const isEditorPath = (path: string) => path === 'title' || path === 'enabled' || /^questions(\.|$)/.test(path);

/**
 * The questionnaire editor's state: the draft (from the server's version `base`), its problems (the contracts'
 * checks, live, and the server's answer to the last save), and save, reload, copy and delete with their answers.
 */
export function useSurveyEditor(survey: Survey, refetch: () => Promise<{ data?: Survey | undefined }>) {
  const { t } = useTranslation('surveys');
  const navigate = useNavigate();
  const update = useUpdateSurvey(survey.id);

  const [base, setBase] = useState<{ draft: SurveyDraft; updatedAt: string; canEdit: boolean }>(() => ({
    draft: draftOf(survey),
    updatedAt: survey.updated_at,
    canEdit: survey.can.edit,
  }));
  const [draft, setDraft] = useState<SurveyDraft>(base.draft);
  const draftRef = useRef(draft);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [language, setLanguage] = useState<Language>(currentLanguage);

  const editable = survey.can.edit;
  const dirty = useMemo(
    () => editable && JSON.stringify(draft) !== JSON.stringify(base.draft),
    [editable, draft, base.draft],
  );
  const guard = useLeaveGuard(dirty);
  const actions = useSurveyActions(survey, {
    onCopied: (id) => navigate(surveyPath(id)),
    onDeleted: () => {
      guard.allowLeave();
      navigate(SURVEYS_PATH);
    },
  });

  const fill = useCallback((next: Survey) => {
    const values = draftOf(next);
    setBase({ draft: values, updatedAt: next.updated_at, canEdit: next.can.edit });
    draftRef.current = values;
    setDraft(values);
    setServerErrors({});
    setConflict(null);
  }, []);

  // A newer version from the server replaces the draft unless the user is editing it; one that can no longer be
  // edited (its project was launched) replaces it always.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the server's version only
  useEffect(() => {
    if (survey.updated_at === base.updatedAt && survey.can.edit === base.canEdit) return;
    if (!dirty || !survey.can.edit) fill(survey);
  }, [survey]);

  const dispatch = useCallback(
    (action: SurveyAction) => {
      const current = draftRef.current;
      const next = surveyReducer(current, action);
      if (next === current) return;
      draftRef.current = next;
      setDraft(next);
      setServerErrors((errors) => (Object.keys(errors).length ? {} : errors));
      const dropped = droppedConditions(current, action, next);
      if (dropped > 0) {
        notifications.show({ color: 'yellow', message: t('logic.dropped', { count: dropped }), autoClose: 7000 });
      }
    },
    [t],
  );

  const problems = useMemo(() => draftProblems(survey.type, draft), [survey.type, draft]);
  /** The message at a path: the server's answer to the last save first, then the live checks, translated. */
  const errorAt = useCallback(
    (path: string): string | undefined => {
      const server = serverErrors[path];
      if (server) return server;
      const own = problems.get(path);
      return own ? translateMessage(own) : undefined;
    },
    [serverErrors, problems],
  );
  /** Every message under a path (the question's card shows those no field of it shows). */
  const errorsUnder = useCallback(
    (prefix: string): [string, string][] => {
      const out = new Map<string, string>();
      for (const [path, message] of problems) if (path.startsWith(prefix)) out.set(path, translateMessage(message));
      for (const [path, message] of Object.entries(serverErrors)) if (path.startsWith(prefix)) out.set(path, message);
      return [...out];
    },
    [problems, serverErrors],
  );

  const reload = async () => {
    const result = await refetch();
    if (result.data) fill(result.data);
  };

  const save = () => {
    if (!editable || update.isPending) return;
    if (problems.size > 0) {
      notifySaveInvalid();
      // The first field in trouble comes into view.
      document
        .querySelector('[aria-invalid="true"], [data-has-problems]')
        ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      return;
    }
    update.mutate(updateBody(draft, base.updatedAt), {
      onSuccess: (saved) => {
        fill(saved);
        closeSaveErrors();
        notifications.show({ color: 'green', message: t('editor.saved'), autoClose: 4000 });
      },
      onError: (error) => {
        if (error instanceof ApiRequestError && error.code === 'conflict') {
          setConflict(errorMessage(error));
          return;
        }
        // Frozen meanwhile (its project was launched): show it as it is now.
        if (error instanceof ApiRequestError && (error.code === 'invalid_state' || error.status === 404)) {
          void refetch();
        }
        showSaveError(error, {
          setErrors: (errors) =>
            setServerErrors(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]))),
          isOnForm: isEditorPath,
          ownWords: (e) => (e.code === 'invalid_state' ? errorMessage(e) : undefined),
        });
      },
    });
  };

  return {
    survey,
    draft,
    dispatch,
    editable,
    dirty,
    language,
    setLanguage,
    problems,
    errorAt,
    errorsUnder,
    conflict,
    guard,
    pending: { save: update.isPending, copy: actions.copying, remove: actions.removing },
    save,
    discard: () => fill(survey),
    reload,
    makeCopy: actions.makeCopy,
    confirmDelete: actions.confirmDelete,
  } as const;
}

export type SurveyEditorState = ReturnType<typeof useSurveyEditor>;
