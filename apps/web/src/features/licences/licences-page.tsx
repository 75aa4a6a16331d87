import {
  type AccountLicenceOutput,
  ADDITIONAL_PACKAGES_MAX,
  addPackageInput,
  type LedgerEntry,
  LICENCE_PACKAGES,
  type LicenceOutput,
  type LicencePackage,
  packageSessions,
} from '@emolens/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NumberInput,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconPackage, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { InlineLoadError } from '../../components/load-states.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { issueMessages, translateFields, translateMessage } from '../../i18n/messages.ts';
import { AccessRequestsPanel } from '../access-requests/access-requests-panel.tsx';
import { notifyError } from '../errors/notify.ts';
import { useAccountLicence, useAddPackage, useLedger, useLicence } from './api.ts';

function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const number = new Intl.NumberFormat(language);
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    number: (n: number) => number.format(n),
    when: (iso: string) => when.format(new Date(iso)),
    duration: (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  };
}

/**
 * /cabinet/licences (issue 15, item 3): the account's sessions — balance, packages, consumption per project and the
 * history of every package and charge; staff look up any account by its public id and add packages to it.
 */
export function LicencesPage() {
  const { t } = useTranslation('licences');
  const licence = useLicence();
  const data = licence.data;
  return (
    <Stack gap="lg" maw={1100} data-testid="licences">
      <PageHeading title={t('title')} subtitle={t('subtitle')} small />
      {licence.isError && (
        <InlineLoadError text={t('loadFailed')} retryLabel={t('retry')} onRetry={() => licence.refetch()} />
      )}
      {data && (
        <>
          <Balance data={data} />
          {data.projects.length > 0 && <ByProject data={data} />}
          {data.licensed && <History />}
          {data.can.manage && <AccessRequestsPanel />}
          {data.can.manage && <StaffPanel />}
        </>
      )}
    </Stack>
  );
}

function Balance({ data }: { data: LicenceOutput }) {
  const { t } = useTranslation('licences');
  const f = useFormat();
  if (!data.licensed) {
    return (
      <SectionCard testId="licence-none">
        <Stack gap="xs">
          <Text fw={600}>{t('none.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('none.text')}
          </Text>
          <Anchor component={Link} to="/price" size="sm">
            {t('none.prices')}
          </Anchor>
        </Stack>
      </SectionCard>
    );
  }
  const used = data.added > 0 ? Math.min(100, (data.consumed / data.added) * 100) : 0;
  return (
    <SectionCard testId="licence-balance">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('balance')}
            </Text>
            <Text fz={40} fw={700} lh={1.1} c={data.balance === 0 ? 'red' : data.low ? 'orange' : undefined}>
              {f.number(data.balance)}
            </Text>
            <Text size="sm" c="dimmed">
              {t('sessionsLeft')}
            </Text>
          </Stack>
          <Group gap="lg">
            <Text size="sm">{t('added', { n: f.number(data.added) })}</Text>
            <Text size="sm">{t('consumed', { n: f.number(data.consumed) })}</Text>
          </Group>
        </Group>
        <Progress value={used} color={data.low ? 'orange' : 'blue'} size="lg" radius="xl" aria-label={t('balance')} />
        {data.balance === 0 ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="licence-exhausted">
            {translateMessage({ key: 'licence.exhausted' })}
          </Alert>
        ) : (
          data.low && (
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="licence-low">
              {t('low')}
            </Alert>
          )
        )}
        {data.unpaid > 0 && (
          <Text size="sm" c="red">
            {t('unpaid', { n: f.number(data.unpaid) })}
          </Text>
        )}
        <Group gap="xs">
          {data.packages.map((p) => (
            <Badge key={p.id} variant="light" leftSection={<IconPackage size={12} />} style={{ textTransform: 'none' }}>
              {packageLabel(t, p)} · {f.when(p.created_at)}
            </Badge>
          ))}
        </Group>
      </Stack>
    </SectionCard>
  );
}

function packageLabel(t: (key: string, options?: Record<string, unknown>) => string, entry: LedgerEntry): string {
  const name = t(`packages.${entry.package ?? 'additional'}`);
  return entry.quantity && entry.quantity > 1 ? `${name} × ${entry.quantity}` : name;
}

/** Sessions per project as bars: where the balance went. */
function ByProject({ data }: { data: LicenceOutput }) {
  const { t } = useTranslation('licences');
  const f = useFormat();
  const most = Math.max(1, ...data.projects.map((p) => p.sessions));
  return (
    <SectionCard testId="licence-projects">
      <Stack gap="md">
        <SectionTitle title={t('byProject')} />
        {data.projects.map((p) => (
          <Stack key={p.project_id ?? 'deleted'} gap={4}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              {p.project_id && p.title ? (
                <Anchor component={Link} to={`/cabinet/projects/${p.project_id}`} size="sm" lineClamp={1}>
                  {p.title}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('deletedProject')}
                </Text>
              )}
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {t('sessions', { n: f.number(p.sessions) })}
              </Text>
            </Group>
            <Progress value={(p.sessions / most) * 100} size="md" radius="xl" />
            <Text size="xs" c="dimmed">
              {[
                p.respondents ? t('respondents', { n: f.number(p.respondents) }) : null,
                p.analyses ? t('analyses', { n: f.number(p.analyses) }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Stack>
        ))}
      </Stack>
    </SectionCard>
  );
}

function History() {
  const { t } = useTranslation('licences');
  const f = useFormat();
  const ledger = useLedger();
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const what = (e: LedgerEntry) =>
    e.kind === 'package'
      ? packageLabel(t, e)
      : `${t(`kinds.${e.kind}`)}${e.seconds !== null ? ` · ${f.duration(e.seconds)}` : ''}`;
  const amount = (e: LedgerEntry) => {
    const sign = e.delta > 0 ? '+' : e.delta < 0 ? '−' : '';
    const owed = e.unpaid > 0 ? ` (${t('owed', { n: f.number(e.unpaid) })})` : '';
    return `${sign}${f.number(Math.abs(e.delta))}${owed}`;
  };
  return (
    <SectionCard testId="licence-history">
      <Stack gap="md">
        <SectionTitle title={t('history')} />
        {ledger.isError && (
          <InlineLoadError text={t('loadFailed')} retryLabel={t('retry')} onRetry={() => ledger.refetch()} />
        )}
        <Stack gap={0} hiddenFrom="sm" data-testid="ledger-cards">
          {items.map((e) => (
            <Stack key={e.id} gap={2} py="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{what(e)}</Text>
                <Text size="sm" fw={600} c={e.delta > 0 ? 'green' : e.unpaid > 0 ? 'red' : undefined}>
                  {amount(e)}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {[f.when(e.created_at), e.project_title, e.note].filter(Boolean).join(' · ')}
              </Text>
            </Stack>
          ))}
        </Stack>
        <Table.ScrollContainer minWidth={560} visibleFrom="sm">
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.when')}</Table.Th>
                <Table.Th>{t('columns.what')}</Table.Th>
                <Table.Th>{t('columns.project')}</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>{t('columns.sessions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id} data-testid="ledger-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{f.when(e.created_at)}</Table.Td>
                  <Table.Td>
                    {what(e)}
                    {e.note && (
                      <Text size="xs" c="dimmed">
                        {e.note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{e.project_title ?? '—'}</Table.Td>
                  <Table.Td
                    style={{ textAlign: 'right', whiteSpace: 'nowrap' }}
                    c={e.delta > 0 ? 'green' : e.unpaid > 0 ? 'red' : undefined}
                    fw={500}
                  >
                    {amount(e)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {ledger.hasNextPage && (
          <Group justify="center">
            <Button variant="light" loading={ledger.isFetchingNextPage} onClick={() => ledger.fetchNextPage()}>
              {t('more')}
            </Button>
          </Group>
        )}
      </Stack>
    </SectionCard>
  );
}

/** Staff: an account by its public user id, and a package added to it. */
function StaffPanel() {
  const { t } = useTranslation('licences');
  const [publicId, setPublicId] = useState('');
  const [query] = useDebouncedValue(publicId, 400);
  const account = useAccountLicence(query);
  const notFound = account.error instanceof ApiRequestError && account.error.status === 404;
  return (
    <SectionCard testId="licence-staff">
      <Stack gap="md">
        <Stack gap={4}>
          <SectionTitle title={t('staff.title')} />
          <Text size="sm" c="dimmed">
            {t('staff.subtitle')}
          </Text>
        </Stack>
        <TextInput
          label={t('staff.publicId')}
          placeholder="NQ1E7MYK"
          value={publicId}
          onChange={(e) => setPublicId(e.currentTarget.value)}
          error={notFound ? translateMessage({ key: 'user.doesNotExist' }) : undefined}
          maw={320}
          data-testid="licence-account-id"
        />
        {account.data && <AccountPackage account={account.data} publicId={query} />}
      </Stack>
    </SectionCard>
  );
}

function AccountPackage({ account, publicId }: { account: AccountLicenceOutput; publicId: string }) {
  const { t } = useTranslation('licences');
  const f = useFormat();
  const add = useAddPackage(publicId);
  const [pkg, setPkg] = useState<LicencePackage>('basic');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const body = { package: pkg, quantity: Number(quantity), note };
  const sessions = Number.isInteger(body.quantity) && body.quantity > 0 ? packageSessions(pkg, body.quantity) : 0;
  const who = account.user.name || account.user.username;
  const submit = () => {
    const parsed = addPackageInput.safeParse(body);
    if (!parsed.success) {
      setErrors(issueMessages(parsed.error));
      return;
    }
    setErrors({});
    openConfirm({
      title: t('staff.confirmTitle'),
      children: <Text size="sm">{t('staff.confirmText', { n: f.number(sessions), who })}</Text>,
      labels: { confirm: t('staff.add'), cancel: t('cancel') },
      confirmProps: { 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        add.mutateAsync(body, {
          onSuccess: () => setNote(''),
          onError: (error) => {
            setErrors(error instanceof ApiRequestError ? translateFields(error) : {});
            notifyError(error);
          },
        }),
    });
  };
  return (
    <Stack gap="md" data-testid="licence-account">
      <Text size="sm">
        {t('staff.account', {
          who,
          username: account.user.username,
          balance: account.licensed ? f.number(account.balance) : t('staff.notMetered'),
        })}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Select
          label={t('staff.package')}
          value={pkg}
          onChange={(v) => v && setPkg(v as LicencePackage)}
          data={LICENCE_PACKAGES.map((id) => ({
            value: id,
            label: `${t(`packages.${id}`)} — ${t('sessions', { n: f.number(packageSessions(id)) })}`,
          }))}
          allowDeselect={false}
          error={errors.package}
          data-testid="licence-package"
        />
        <NumberInput
          label={t('staff.quantity')}
          min={1}
          max={ADDITIONAL_PACKAGES_MAX}
          value={quantity}
          onChange={setQuantity}
          error={errors.quantity}
        />
        <TextInput
          label={t('staff.note')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={errors.note}
        />
      </SimpleGrid>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('staff.adds', { n: f.number(sessions) })}
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={submit} loading={add.isPending} data-testid="licence-add">
          {t('staff.add')}
        </Button>
      </Group>
    </Stack>
  );
}
