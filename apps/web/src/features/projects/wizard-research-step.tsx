import type { ContentType } from '@emolens/contracts';
import { Alert, Group, Radio, SimpleGrid, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconCircleDashed, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_TYPE_ICONS } from '../researches/research-ui.tsx';
import { type WizardResearchValues, wizardContentTypes } from './wizard-research.ts';

const NONE = 'none';

/** The wizard's research step: the content type of a first research (or none yet) and its name. */
export function WizardResearchStep({
  form,
  isArmi,
}: {
  form: UseFormReturnType<WizardResearchValues>;
  isArmi: boolean;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation('researches');
  const chosen = form.values.content_type;
  const types = wizardContentTypes(isArmi);

  const choose = (value: string) => {
    form.setFieldValue('content_type', types.find((type) => type === value) ?? null);
    form.clearFieldError('title');
  };

  return (
    <Stack gap="md" data-testid="wizard-research">
      <Text size="sm" c="dimmed">
        {t('wizard.research.intro')}
      </Text>
      <Radio.Group value={chosen ?? NONE} onChange={choose} data-testid="wizard-research-type">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <TypeCard value={NONE} selected={chosen === null} icon={<IconCircleDashed size={18} />}>
            {t('wizard.research.none')}
            <Hint>{t('wizard.research.noneHint')}</Hint>
          </TypeCard>
          {types.map((type: ContentType) => {
            const Icon = CONTENT_TYPE_ICONS[type];
            return (
              <TypeCard key={type} value={type} selected={chosen === type} icon={<Icon size={18} />}>
                {tc(`contentTypes.${type}`)}
                <Hint>{t(`wizard.research.hints.${type}`)}</Hint>
              </TypeCard>
            );
          })}
        </SimpleGrid>
      </Radio.Group>
      {chosen && (
        <>
          <TextInput
            label={t('wizard.research.name')}
            placeholder={t('wizard.research.namePlaceholder')}
            withAsterisk
            data-autofocus
            {...form.getInputProps('title')}
            data-testid="wizard-research-title"
          />
          <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} />}>
            {t('wizard.research.after')}
          </Alert>
        </>
      )}
    </Stack>
  );
}

function TypeCard({
  value,
  selected,
  icon,
  children,
}: {
  value: string;
  selected: boolean;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <Radio.Card
      value={value}
      p="sm"
      radius="md"
      data-testid={`wizard-research-${value}`}
      style={
        selected
          ? { borderColor: 'var(--mantine-primary-color-filled)', background: 'var(--mantine-primary-color-light)' }
          : undefined
      }
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon variant="light" radius="md" color={selected ? undefined : 'gray'}>
          {icon}
        </ThemeIcon>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" component="div">
            {children}
          </Text>
        </Stack>
      </Group>
    </Radio.Card>
  );
}

function Hint({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="dimmed" fw={400}>
      {children}
    </Text>
  );
}
