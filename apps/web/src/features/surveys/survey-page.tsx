import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  isNotFound,
  LoadErrorState,
  LoadingState,
  NotFoundState,
  useLoadErrorNotice,
} from '../../components/load-states.tsx';
import { useSurvey } from './api.ts';
import { SURVEYS_PATH } from './paths.ts';
import { SurveyEditor } from './survey-editor.tsx';

/** `/cabinet/surveys/{id}`: loads the questionnaire, then its editor (read-only when it cannot be changed). */
export function SurveyPage() {
  const { t } = useTranslation('surveys');
  const { id = '' } = useParams();
  const query = useSurvey(id);
  useLoadErrorNotice(query.error && !isNotFound(query.error) ? query.error : null, t('load.error'));

  // Another questionnaire (a copy just made) starts a new editor.
  if (query.data) return <SurveyEditor key={query.data.id} survey={query.data} refetch={query.refetch} />;
  if (isNotFound(query.error)) {
    return (
      <NotFoundState
        title={t('load.notFoundTitle')}
        text={t('load.notFoundText')}
        back={SURVEYS_PATH}
        backLabel={t('editor.backToList')}
        testId="survey-not-found"
      />
    );
  }
  if (query.isError) {
    return (
      <LoadErrorState
        text={t('load.error')}
        retryLabel={t('actions.retry')}
        onRetry={() => void query.refetch()}
        testId="survey-load-error"
      />
    );
  }
  return <LoadingState testId="survey-loading" />;
}
