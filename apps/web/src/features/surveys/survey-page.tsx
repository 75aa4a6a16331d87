import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ObjectPage } from '../../components/load-states.tsx';
import { useSurvey } from './api.ts';
import { SURVEYS_PATH } from './paths.ts';
import { SurveyEditor } from './survey-editor.tsx';

/** `/cabinet/surveys/{id}`: loads the questionnaire, then its editor (read-only when it cannot be changed). */
export function SurveyPage() {
  const { t } = useTranslation('surveys');
  const { id = '' } = useParams();
  const query = useSurvey(id);
  return (
    <ObjectPage
      query={query}
      testId="survey"
      errorText={t('load.error')}
      retryLabel={t('actions.retry')}
      notFound={{
        title: t('load.notFoundTitle'),
        text: t('load.notFoundText'),
        back: SURVEYS_PATH,
        backLabel: t('editor.backToList'),
      }}
      noticeNotFound={false}
      preferData
    >
      {/* Another questionnaire (a copy just made) starts a new editor. */}
      {(survey) => <SurveyEditor key={survey.id} survey={survey} refetch={query.refetch} />}
    </ObjectPage>
  );
}
