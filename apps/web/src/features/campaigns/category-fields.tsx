import { CATEGORY_KINDS } from '@emolens/contracts';
import { Anchor, Grid, Select, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCategories } from '../categories/api.ts';
import type { CampaignFormValues } from './campaign-form.ts';

/**
 * A research's categories, each chosen from the categories directory (issue 13, item 7); the subtype among those of
 * the research's content type. A value the directory no longer holds stays shown until it is changed.
 */
export function CategoryFields({ form, readOnly }: { form: UseFormReturnType<CampaignFormValues>; readOnly: boolean }) {
  const { t } = useTranslation('campaigns');
  const directory = useCategories();
  const entries = directory.data?.entries ?? [];
  const contentType = form.values.content_type;
  return (
    <Grid gutter="md">
      {CATEGORY_KINDS.map((field) => {
        const value = form.values.categories[field];
        const names = entries
          .filter((e) => e.kind === field && (field !== 'subtype' || e.content_type === contentType))
          .map((e) => e.name);
        const data = value && !names.includes(value) ? [value, ...names] : names;
        const props = form.getInputProps(`categories.${field}`);
        return (
          <Grid.Col key={field} span={{ base: 12, sm: 6 }}>
            <Select
              label={t(`categories.${field}`)}
              data={data}
              searchable
              clearable
              readOnly={readOnly}
              disabled={directory.isPending}
              placeholder={names.length ? t('categories.choose') : t('categories.none')}
              nothingFoundMessage={t('categories.nothingFound')}
              value={value || null}
              onChange={(next) => form.setFieldValue(`categories.${field}`, next ?? '')}
              error={props.error}
              data-testid={`category-${field}`}
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
