import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { ObjectPage } from '../../components/load-states.tsx';
import { useForgetResearch, useResearch } from './api.ts';
import { NEW_ID, type ResearchContext, useResearchContext } from './research-context.ts';

/**
 * campaign/{id}: loads the research first (spec section 2), then renders its child page. The id
 * 'new' means create: nothing is loaded, and no research stored from an earlier page is kept.
 */
export function ResearchPage() {
  const { t } = useTranslation('researches');
  const { id = '' } = useParams();
  const isNew = id === NEW_ID;
  const query = useResearch(id, !isNew);
  const forget = useForgetResearch();

  // A research being created starts from nothing: drop anything cached under the placeholder id.
  useEffect(() => {
    if (isNew) forget(NEW_ID);
  }, [isNew, forget]);

  if (isNew) return <Outlet context={{ research: null, refetch: query.refetch } satisfies ResearchContext} />;
  return (
    <ObjectPage
      query={query}
      testId="campaign"
      errorText={t('load.error')}
      retryLabel={t('actions.retry')}
      notFound={{
        title: t('load.notFoundTitle'),
        text: t('load.notFoundText'),
        back: '/cabinet/campaigns',
        backLabel: t('form.backToList'),
      }}
      preferData
    >
      {(research) => <Outlet context={{ research, refetch: query.refetch } satisfies ResearchContext} />}
    </ObjectPage>
  );
}

/** campaign/{id} itself: the research's form (contentless researches have their own). */
export function ResearchIndex() {
  const { research } = useResearchContext();
  const { search } = useLocation();
  const child = research?.content_type === 'contentless' ? 'contentless' : 'form';
  return <Navigate to={`${child}${search}`} replace />;
}
