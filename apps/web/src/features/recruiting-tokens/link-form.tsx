import { RECRUITING_PLATFORM_CONTRACTS, type RecruitingEnvironment, type RecruitingService } from '@emolens/contracts';
import {
  Button,
  Group,
  Input,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconLock, IconPlugConnected } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../../components/secret-input.tsx';
import { issueMessages } from '../../i18n/messages.ts';
import { useLinkRecruitingToken } from './api.ts';
import { failed, toastOk } from './token-feedback.ts';
import { TOKEN_PLATFORMS } from './token-platforms.ts';

/** Labels in one line, the inputs under them, then the hints and messages: the inputs line up across the row. */
const ORDER: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

/** The form's values: the description and the service's secrets, all empty. */
const emptyOf = (service: RecruitingService): Record<string, string> =>
  Object.fromEntries([['description', ''], ...TOKEN_PLATFORMS[service].secrets.map((f) => [f.name, ''])]);

/**
 * Toloka: description, OAuth token, environment. Amazon: description, access key ID, secret, environment. Prolific:
 * description, API token (one environment).
 */
export function LinkForm({ service, canLink }: { service: RecruitingService; canLink: boolean }) {
  const { t } = useTranslation('integrations');
  const platform = TOKEN_PLATFORMS[service];
  const link = useLinkRecruitingToken(service);
  const [values, setValues] = useState(() => emptyOf(service));
  const [environment, setEnvironment] = useState<RecruitingEnvironment>('production');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: string) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = RECRUITING_PLATFORM_CONTRACTS[service].linkToken.safeParse({ ...values, environment });
    if (!parsed.success) {
      setErrors(issueMessages(parsed.error));
      return;
    }
    setErrors({});
    link.mutate(parsed.data, {
      onSuccess: (token) => {
        setValues(emptyOf(service));
        toastOk(token.active ? t('tokens.linkedActive') : t('tokens.linked'));
      },
      onError: (error) => failed(error, setErrors),
    });
  };

  const secretFields = platform.secrets.map((field) => {
    const Component = field.visible ? TextInput : SecretInput;
    return (
      <Component
        key={field.name}
        inputWrapperOrder={ORDER}
        label={t(field.label)}
        description={t(field.hint)}
        withAsterisk
        autoComplete="off"
        spellCheck={field.visible ? false : undefined}
        value={values[field.name]}
        onChange={(e) =>
          set(field.name)(field.normalise ? field.normalise(e.currentTarget.value) : e.currentTarget.value)
        }
        error={errors[field.name]}
        data-testid={field.testId}
      />
    );
  });

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('tokens.linkTitle')}
        </Title>
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 2 + platform.secrets.length }}
          spacing="md"
          verticalSpacing="md"
          style={{ alignItems: 'start' }}
        >
          <TextInput
            inputWrapperOrder={ORDER}
            label={t('tokens.description')}
            placeholder={t(`${platform.texts}.descriptionPlaceholder`)}
            withAsterisk
            value={values.description}
            onChange={(e) => set('description')(e.currentTarget.value)}
            error={errors.description}
            data-testid="recruiting-token-description"
          />
          {secretFields}
          {platform.sandbox && (
            <Input.Wrapper
              inputWrapperOrder={ORDER}
              label={t('tokens.environment')}
              description={t('tokens.environmentHint')}
              error={errors.environment}
            >
              <SegmentedControl
                fullWidth
                value={environment}
                onChange={(value) => setEnvironment(value as RecruitingEnvironment)}
                data={[
                  { value: 'production', label: t('tokens.environments.production') },
                  { value: 'sandbox', label: t('tokens.environments.sandbox') },
                ]}
                data-testid="recruiting-token-environment"
              />
            </Input.Wrapper>
          )}
        </SimpleGrid>
        <Group justify="space-between" align="center" gap="sm">
          <Group gap={6} wrap="nowrap" style={{ flex: '1 1 300px' }}>
            <IconLock size={16} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
            <Text size="xs" c="dimmed">
              {t('tokens.secretNote')}
            </Text>
          </Group>
          <Button
            type="submit"
            leftSection={<IconPlugConnected size={16} />}
            loading={link.isPending}
            disabled={!canLink}
            data-testid="recruiting-token-link"
          >
            {t('tokens.link')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
