import type { CategoryKind } from '@emolens/contracts';
import { Anchor, Grid, Select, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCategories } from './api.ts';

/**
 * Categories, each chosen from the categories directory (issue 13, item 7), with the link to the directory under
 * them; the subtype among those of `contentType`. A value the directory no longer holds stays shown until it is
 * changed. Texts from the `ns` namespace's `categories.*` keys (a research's form and a self-service test).
 */
export function CategorySelects({
  ns,
  kinds,
  values,
  contentType,
  readOnly,
  onChange,
  field,
}: {
  ns: 'researches' | 'selfService';
  kinds: readonly CategoryKind[];
  values: Record<CategoryKind, string>;
  contentType: string | null;
  readOnly: boolean;
  onChange: (kind: CategoryKind, value: string) => void;
  /** What differs by kind: the column's span, the select's description, requiredness, error and test id. */
  field: (kind: CategoryKind) => {
    span: number;
    description?: string;
    required?: boolean;
    error?: ReactNode;
    testId: string;
  };
}) {
  const { t } = useTranslation(ns);
  const directory = useCategories();
  const entries = directory.data?.entries ?? [];
  return (
    <Grid gap="md">
      {kinds.map((kind) => {
        const value = values[kind];
        const names = entries
          .filter((e) => e.kind === kind && (kind !== 'subtype' || e.content_type === contentType))
          .map((e) => e.name);
        const data = value && !names.includes(value) ? [value, ...names] : names;
        const own = field(kind);
        return (
          <Grid.Col key={kind} span={{ base: 12, sm: own.span }}>
            <Select
              label={t(`categories.${kind}`)}
              description={own.description}
              required={own.required}
              data={data}
              searchable
              clearable
              readOnly={readOnly}
              disabled={directory.isPending}
              placeholder={names.length ? t('categories.choose') : t('categories.none')}
              nothingFoundMessage={t('categories.nothingFound')}
              value={value || null}
              onChange={(next) => onChange(kind, next ?? '')}
              error={own.error}
              data-testid={own.testId}
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
