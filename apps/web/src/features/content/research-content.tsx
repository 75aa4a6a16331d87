import type { Research } from '@emolens/contracts';
import { Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ContentUploader } from '../media/content-uploader.tsx';
import type { ResearchFormValues } from '../researches/research-form.ts';
import { PicturesGalleryEditor } from './pictures-gallery-editor.tsx';
import { ShelfEditor } from './shelf-editor.tsx';
import { WebTasksBuilder } from './web-tasks-builder.tsx';

/** What every content editor receives: the research form (its content lives in the form's values). */
export interface ContentEditorProps {
  form: UseFormReturnType<ResearchFormValues>;
  research: Research;
  editable: boolean;
}

/**
 * The content of a saved research: its files, then what its type builds from them (the pictures
 * gallery, the shelves with their zones, the website-prototype tasks). Saved with the form.
 */
export function ResearchContent({ form, research }: Pick<ContentEditorProps, 'form' | 'research'>) {
  const editable = research.can_edit;
  return (
    <Stack gap="lg">
      <ContentUploader researchId={research.id} contentType={research.content_type} editable={editable} />
      {research.content_type === 'pictures' && (
        <PicturesGalleryEditor form={form} research={research} editable={editable} />
      )}
      {research.content_type === 'shelf' && <ShelfEditor form={form} research={research} editable={editable} />}
      {research.content_type === 'site' && <WebTasksBuilder form={form} research={research} editable={editable} />}
    </Stack>
  );
}
