import { ACCESS_REQUEST_LIMITS, ACCESS_REQUEST_PACKAGES, accessRequestInput, PRICING } from '@emolens/contracts';
import { Alert, Anchor, Button, Center, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { LogoMark } from '../../components/logo.tsx';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { useFormatters } from '../public/use-formatters.ts';
import { useRequestAccess } from './api.ts';

type PackageId = (typeof ACCESS_REQUEST_PACKAGES)[number];
const isPackage = (value: string | null): value is PackageId =>
  (ACCESS_REQUEST_PACKAGES as readonly string[]).includes(value ?? '');

/**
 * /request-access: how a visitor becomes a customer (issue 28, item 16). The price page's "Get started" opens it with
 * the package chosen; staff see the request under Sessions and make the account.
 */
export function RequestAccessPage() {
  const { t } = useTranslation('public');
  const f = useFormatters();
  const [params] = useSearchParams();
  const chosen = params.get('package');
  const send = useRequestAccess();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: '',
      company: '',
      email: '',
      package: isPackage(chosen) ? chosen : ('basic' as PackageId),
      message: '',
    },
    validate: (values) => {
      const parsed = accessRequestInput.safeParse(values);
      if (parsed.success) return {};
      return Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), translateMessage(i.message)]));
    },
  });

  const submit = form.onSubmit((values) =>
    send.mutate(accessRequestInput.parse(values), {
      onSuccess: () => setSentTo(values.email.trim()),
      onError: (error) => {
        if (error instanceof ApiRequestError && error.fields) form.setErrors(translateFields(error));
      },
    }),
  );

  const packages = PRICING.packages.map((p) => ({
    value: p.id,
    label: t('requestAccess.sessions', { name: t(`price.packages.${p.id}.name`), n: f.number(p.sessions) }),
  }));

  return (
    <Center py={{ base: 32, sm: 64 }} px="md">
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg" w="100%" maw={560}>
        <Stack gap="md">
          <Stack gap={6} align="center">
            <LogoMark size={44} />
            <Title order={2} ta="center">
              {t('requestAccess.title')}
            </Title>
            {!sentTo && (
              <Text c="dimmed" size="sm" ta="center">
                {t('requestAccess.subtitle')}
              </Text>
            )}
          </Stack>
          {sentTo ? (
            <Stack gap="md" data-testid="request-access-sent">
              <Alert color="teal" icon={<IconCircleCheck size={18} />} title={t('requestAccess.sentTitle')}>
                {t('requestAccess.sent', { email: sentTo })}
              </Alert>
              <Button component={Link} to="/price" variant="light">
                {t('requestAccess.toPrice')}
              </Button>
            </Stack>
          ) : (
            <form onSubmit={submit} noValidate data-testid="request-access-form">
              <Stack gap="md">
                <TextInput
                  label={t('requestAccess.name')}
                  autoComplete="name"
                  required
                  maxLength={ACCESS_REQUEST_LIMITS.name}
                  data-testid="request-access-name"
                  {...form.getInputProps('name')}
                />
                <TextInput
                  label={t('requestAccess.company')}
                  autoComplete="organization"
                  required
                  maxLength={ACCESS_REQUEST_LIMITS.company}
                  data-testid="request-access-company"
                  {...form.getInputProps('company')}
                />
                <TextInput
                  label={t('requestAccess.email')}
                  type="email"
                  autoComplete="email"
                  required
                  maxLength={ACCESS_REQUEST_LIMITS.email}
                  data-testid="request-access-email"
                  {...form.getInputProps('email')}
                />
                <Select
                  label={t('requestAccess.package')}
                  data={packages}
                  allowDeselect={false}
                  required
                  data-testid="request-access-package"
                  {...form.getInputProps('package')}
                />
                <Textarea
                  label={t('requestAccess.message')}
                  placeholder={t('requestAccess.messagePlaceholder')}
                  autosize
                  minRows={3}
                  maxRows={8}
                  maxLength={ACCESS_REQUEST_LIMITS.message}
                  data-testid="request-access-message"
                  {...form.getInputProps('message')}
                />
                <Button
                  type="submit"
                  size="md"
                  fullWidth
                  loading={send.isPending}
                  rightSection={<IconSend size={16} />}
                  data-testid="request-access-submit"
                >
                  {t('requestAccess.submit')}
                </Button>
              </Stack>
            </form>
          )}
          <Text size="xs" c="dimmed" ta="center">
            {t('requestAccess.haveAccount')}{' '}
            <Anchor component={Link} to="/login" size="xs">
              {t('requestAccess.login')}
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
