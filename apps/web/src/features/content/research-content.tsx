import type { Campaign } from '@emolens/contracts';
import { Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { CampaignFormValues } from '../campaigns/campaign-form.ts';
import { ContentUploader } from '../media/content-uploader.tsx';
import { PicturesGalleryEditor } from './pictures-gallery-editor.tsx';
import { ShelfEditor } from './shelf-editor.tsx';
import { WebTasksBuilder } from './web-tasks-builder.tsx';

/** What every content editor receives: the research form (its content lives in the form's values). */
export interface ContentEditorProps {
  form: UseFormReturnType<CampaignFormValues>;
  campaign: Campaign;
  editable: boolean;
}

/**
 * The content of a saved research: its files, then what its type builds from them (the pictures
 * gallery, the shelves with their zones, the website-prototype tasks). Saved with the form.
 */
export function ResearchContent({ form, campaign }: Pick<ContentEditorProps, 'form' | 'campaign'>) {
  const editable = campaign.can_edit;
  return (
    <Stack gap="lg">
      <ContentUploader campaignId={campaign.id} contentType={campaign.content_type} editable={editable} />
      {campaign.content_type === 'pictures' && (
        <PicturesGalleryEditor form={form} campaign={campaign} editable={editable} />
      )}
      {campaign.content_type === 'shelf' && <ShelfEditor form={form} campaign={campaign} editable={editable} />}
      {campaign.content_type === 'site' && <WebTasksBuilder form={form} campaign={campaign} editable={editable} />}
    </Stack>
  );
}
