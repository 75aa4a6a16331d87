import { CATEGORY_KINDS, type CategoryKind } from '@emolens/contracts';
import { Anchor, Grid, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCategories } from '../categories/api.ts';

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
  const directory = useCategories();
  const entries = directory.data?.entries ?? [];
  // The subtype first: it is the one the test needs.
  const kinds: CategoryKind[] = ['subtype', ...CATEGORY_KINDS.filter((k) => k !== 'subtype')];
  return (
    <Grid gutter="md">
      {kinds.map((kind) => {
        const value = values[kind];
        const names = entries
          .filter((e) => e.kind === kind && (kind !== 'subtype' || e.content_type === 'video'))
          .map((e) => e.name);
        const data = value && !names.includes(value) ? [value, ...names] : names;
        return (
          <Grid.Col key={kind} span={{ base: 12, sm: kind === 'subtype' ? 12 : 6 }}>
            <Select
              label={t(`categories.${kind}`)}
              description={kind === 'subtype' ? t('categories.subtypeHint') : undefined}
              required={kind === 'subtype'}
              data={data}
              searchable
              clearable
              readOnly={readOnly}
              disabled={directory.isPending}
              placeholder={names.length ? t('categories.choose') : t('categories.none')}
              nothingFoundMessage={t('categories.nothingFound')}
              value={value || null}
              onChange={(next) => onChange(kind, next ?? '')}
              error={errors[`categories.${kind}`]}
              data-testid={`self-service-category-${kind}`}
            />
          </Grid.Col>
        );
      })}
      <Grid.Col span={12}>
        <Text size="xs" c="dimmed">
          {t('categories.directoryHint')}{' '}
          <Anchor component={Link} to="/cabinet/categories" size="xs">
            {t('categories.directoryLink')}
          </Anchor>
        </Text>
      </Grid.Col>
    </Grid>
  );
}
