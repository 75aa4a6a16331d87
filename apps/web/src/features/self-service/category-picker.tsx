import { CATEGORY_KINDS, type CategoryKind } from '@emolens/contracts';
import { useTranslation } from 'react-i18next';
import { CategorySelects } from '../categories/category-selects.tsx';

// The subtype first: it is the one the test needs.
const KINDS: CategoryKind[] = ['subtype', ...CATEGORY_KINDS.filter((k) => k !== 'subtype')];

/**
 * The test's categories, each chosen from the categories directory like a research's (the research form's picker is
 * bound to that form); the subtype among those of video ads, required before moderation (the benchmark compares
 * with it). A value the directory no longer holds stays shown until it is changed.
 */
export function CategoryPicker({
  values,
  onChange,
  errors,
  readOnly,
}: {
  values: Record<CategoryKind, string>;
  onChange: (kind: CategoryKind, value: string) => void;
  errors: Partial<Record<string, string>>;
  readOnly: boolean;
}) {
  const { t } = useTranslation('selfService');
  return (
    <CategorySelects
      ns="selfService"
      kinds={KINDS}
      values={values}
      contentType="video"
      readOnly={readOnly}
      onChange={onChange}
      field={(kind) => ({
        span: kind === 'subtype' ? 12 : 6,
        description: kind === 'subtype' ? t('categories.subtypeHint') : undefined,
        required: kind === 'subtype',
        error: errors[`categories.${kind}`],
        testId: `self-service-category-${kind}`,
      })}
    />
  );
}
