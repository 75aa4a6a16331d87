import { CALIBRATION_SECONDS, FLOW_TYPES, type FlowType } from '@emolens/contracts';
import { Alert, Badge, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconClockHour4, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Spec section 2: the choice of flow type, with what each one means and the warning that it
 * cannot be changed after creation.
 */
export function FlowTypePicker({
  value,
  onChange,
  error,
}: {
  value: FlowType | null;
  onChange: (value: FlowType) => void;
  error?: React.ReactNode;
}) {
  const { t } = useTranslation('projects');
  return (
    <Stack gap="md">
      <Radio.Group
        value={value}
        onChange={(next) => {
          const flowType = FLOW_TYPES.find((f) => f === next);
          if (flowType) onChange(flowType);
        }}
        label={t('flowType.question')}
        error={error}
        data-testid="flow-type-picker"
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
          {FLOW_TYPES.map((flowType) => (
            <Radio.Card
              key={flowType}
              value={flowType}
              p="md"
              radius="md"
              data-testid={`flow-type-${flowType}`}
              style={
                value === flowType
                  ? {
                      borderColor: 'var(--mantine-primary-color-filled)',
                      background: 'var(--mantine-primary-color-light)',
                    }
                  : undefined
              }
            >
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator mt={2} />
                <Stack gap={6}>
                  <Group gap="xs">
                    <Text fw={700}>{t(`flowType.${flowType}.title`)}</Text>
                    <Badge
                      size="sm"
                      variant="light"
                      tt="none"
                      color={flowType === 'new' ? 'indigo' : 'grape'}
                      leftSection={<IconClockHour4 size={12} />}
                    >
                      {t('flowType.calibration', { seconds: CALIBRATION_SECONDS[flowType] })}
                    </Badge>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {t(`flowType.${flowType}.description`, { seconds: CALIBRATION_SECONDS[flowType] })}
                  </Text>
                </Stack>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>
      <Alert color="yellow" variant="light" icon={<IconLock size={18} />} data-testid="flow-type-warning">
        {t('flowType.fixedWarning')}
      </Alert>
    </Stack>
  );
}
