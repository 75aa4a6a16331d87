import { Navigate, useSearchParams } from 'react-router';
import { useUser } from '../auth/api.ts';
import { useResearchContext } from './research-context.ts';
import { ResearchEditor } from './research-editor.tsx';

/**
 * campaign/{id}/form and campaign/{id}/contentless: create (id 'new', project from `?project=`)
 * or edit a research. The contentless form fixes the content type and is closed to ARMI users.
 */
export function ResearchFormPage({ contentless = false }: { contentless?: boolean }) {
  const { research, refetch } = useResearchContext();
  const user = useUser().data;
  const [params] = useSearchParams();
  const projectParam = params.get('project');

  // Spec sections 2 and 6: the contentless form sends an ARMI user to the researches list.
  if (contentless && user?.is_armi_user) return <Navigate to="/cabinet/campaigns" replace />;
  if (research && contentless && research.content_type !== 'contentless') {
    return <Navigate to={`/cabinet/campaign/${research.id}/form`} replace />;
  }
  return (
    <ResearchEditor
      // A new research in another project (or another research) starts from a fresh form.
      key={research ? research.id : `new:${projectParam ?? ''}:${contentless}`}
      research={research}
      refetch={refetch}
      projectParam={projectParam}
      contentless={contentless || research?.content_type === 'contentless'}
      isArmi={user?.is_armi_user === true}
    />
  );
}
