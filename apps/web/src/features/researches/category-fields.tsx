import { CATEGORY_KINDS } from '@emolens/contracts';
import type { UseFormReturnType } from '@mantine/form';
import { CategorySelects } from '../categories/category-selects.tsx';
import type { ResearchFormValues } from './research-form.ts';

/**
 * A research's categories, each chosen from the categories directory (issue 13, item 7); the subtype among those of
 * the research's content type. A value the directory no longer holds stays shown until it is changed.
 */
export function CategoryFields({ form, readOnly }: { form: UseFormReturnType<ResearchFormValues>; readOnly: boolean }) {
  return (
    <CategorySelects
      ns="researches"
      kinds={CATEGORY_KINDS}
      values={form.values.categories}
      contentType={form.values.content_type}
      readOnly={readOnly}
      onChange={(kind, value) => form.setFieldValue(`categories.${kind}`, value)}
      field={(kind) => ({
        span: 6,
        error: form.getInputProps(`categories.${kind}`).error,
        testId: `category-${kind}`,
      })}
    />
  );
}
