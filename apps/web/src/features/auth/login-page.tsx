import { LANGUAGES, type Language, loginInput, msg, SSO_START_PATH, ssoErrorSchema } from '@emolens/contracts';
import { Alert, Anchor, Button, Center, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { LogoMark } from '../../components/logo.tsx';
import { SecretInput } from '../../components/secret-input.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { errorMessage } from '../errors/notify.ts';
import { useLogin, useSsoConfig, useUser } from './api.ts';

/** Only paths inside this site may be returned to after login. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/cabinet/projects';
}

/** The single sign-on button's link: the server sends the browser on to the provider and back to `next`. */
function ssoHref(next: string, language: string | undefined): string {
  const query = new URLSearchParams({ next });
  if (LANGUAGES.includes(language as Language)) query.set('lang', language as string);
  return `${SSO_START_PATH}?${query}`;
}

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const user = useUser();
  const login = useLogin();
  const sso = useSsoConfig().data;
  // Why the provider's sign-in was refused, as the server's redirect says; an unknown code is not shown.
  const ssoError = ssoErrorSchema.safeParse(params.get('sso_error')).data;
  const form = useForm({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : translateMessage(msg('validation.required'))),
      password: (v) => (v ? null : translateMessage(msg('validation.required'))),
    },
  });

  if (user.data) return <Navigate to={next} replace />;

  const submit = form.onSubmit((values) =>
    login.mutate(loginInput.parse(values), { onSuccess: () => navigate(next, { replace: true }) }),
  );
  const error = login.error;

  return (
    <Center py={64} px="md">
      <Paper withBorder shadow="sm" p="xl" radius="lg" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Stack gap={6} align="center">
              <LogoMark size={44} />
              <Title order={2} ta="center">
                {t('auth.title')}
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                {t('auth.subtitle')}
              </Text>
            </Stack>
            {ssoError && !error && (
              <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="sso-error">
                {t(`auth.sso.errors.${ssoError}`)}
              </Alert>
            )}
            {error && (
              <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="login-error">
                {errorMessage(error)}
              </Alert>
            )}
            <TextInput
              label={t('auth.username')}
              autoComplete="username"
              autoFocus
              required
              {...form.getInputProps('username')}
            />
            <SecretInput
              label={t('auth.password')}
              autoComplete="current-password"
              required
              {...form.getInputProps('password')}
            />
            <Button type="submit" loading={login.isPending} fullWidth size="md">
              {t('auth.submit')}
            </Button>
            {sso?.enabled && (
              <>
                <Divider label={t('auth.sso.or')} labelPosition="center" />
                <Button
                  component="a"
                  href={ssoHref(next, i18n.resolvedLanguage)}
                  variant="default"
                  fullWidth
                  size="md"
                  leftSection={<IconKey size={18} />}
                  data-testid="sso-login"
                >
                  {sso.label ?? t('auth.sso.button')}
                </Button>
              </>
            )}
            <Text size="xs" c="dimmed" ta="center">
              {t('auth.noAccount')}{' '}
              <Anchor component={Link} to="/request-access" size="xs" data-testid="login-request-access">
                {t('auth.requestAccess')}
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
