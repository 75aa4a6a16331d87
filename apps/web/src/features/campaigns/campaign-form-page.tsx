import { Navigate, useSearchParams } from 'react-router';
import { useUser } from '../auth/api.ts';
import { useCampaignContext } from './campaign-context.ts';
import { CampaignEditor } from './campaign-editor.tsx';

/**
 * campaign/{id}/form and campaign/{id}/contentless: create (id 'new', project from `?project=`)
 * or edit a research. The contentless form fixes the content type and is closed to ARMI users.
 */
export function CampaignFormPage({ contentless = false }: { contentless?: boolean }) {
  const { campaign, refetch } = useCampaignContext();
  const user = useUser().data;
  const [params] = useSearchParams();
  const projectParam = params.get('project');

  // Spec sections 2 and 6: the contentless form sends an ARMI user to the researches list.
  if (contentless && user?.is_armi_user) return <Navigate to="/cabinet/campaigns" replace />;
  if (campaign && contentless && campaign.content_type !== 'contentless') {
    return <Navigate to={`/cabinet/campaign/${campaign.id}/form`} replace />;
  }
  return (
    <CampaignEditor
      // A new research in another project (or another research) starts from a fresh form.
      key={campaign ? campaign.id : `new:${projectParam ?? ''}:${contentless}`}
      campaign={campaign}
      refetch={refetch}
      projectParam={projectParam}
      contentless={contentless || campaign?.content_type === 'contentless'}
      isArmi={user?.is_armi_user === true}
    />
  );
}
