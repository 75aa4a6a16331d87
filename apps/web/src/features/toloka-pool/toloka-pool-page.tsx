import { createTolokaPoolInput, TOLOKA_FEE_SHARE, TOLOKA_POOL_LIMITS, type TolokaPoolOutput } from '@emolens/contracts';
import {
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop, IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadError } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { useCampaignContext } from '../campaigns/campaign-context.ts';
import { notifyError } from '../errors/notify.ts';
import { AcceptancePanel } from '../recruiting/acceptance-panel.tsx';
import { FactsCard, RecruitingProblems } from '../recruiting/recruiting-ui.tsx';
import { useTolokaPool, useTolokaPoolAction } from './api.ts';

const STATUS_COLORS: Record<string, string> = { OPEN: 'green', CLOSED: 'gray', ARCHIVED: 'dark', LOCKED: 'orange' };

/**
 * campaign/{id}/toloka (spec sections 2, 4, 8): the research's Toloka pool — made from the research with the
 * user's active Toloka token, run and stopped — with Toloka's own state, the balance and the pool's cost.
 */
export function TolokaPoolPage() {
  const { t } = useTranslation('integrations');
  const { campaign } = useCampaignContext();
  const pool = useTolokaPool(campaign?.id ?? '');
  const action = useTolokaPoolAction(campaign?.id ?? '');
  if (!campaign) return null;
  const data = pool.data;
  const run = (kind: 'open' | 'close') =>
    openConfirm({
      title: t(`pool.${kind}Title`),
      children: <Text size="sm">{t(`pool.${kind}Text`)}</Text>,
      labels: { confirm: t(`pool.${kind}`), cancel: t('api.cancel') },
      confirmProps: { color: kind === 'open' ? 'green' : 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => action.mutateAsync({ kind }, { onError: (error) => notifyError(error) }),
    });

  return (
    <Stack gap="lg" maw={1100} data-testid="toloka-pool">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${campaign.id}`} label={t('pool.back')} />
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {t('pool.title', { title: campaign.title })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('pool.subtitle')}
        </Text>
      </Stack>
      {pool.isError && (
        <InlineLoadError text={t('pool.loadFailed')} retryLabel={t('api.retry')} onRetry={() => pool.refetch()} />
      )}
      {data && (
        <>
          <Summary data={data} />
          <RecruitingProblems
            problems={data.problems}
            tokensPath="/cabinet/toloka"
            tokensLabel={t('pool.toTokens')}
            testId="pool-problems"
          />
          {data.pool ? (
            <Group gap="sm">
              <Button
                color="green"
                leftSection={<IconPlayerPlay size={16} />}
                disabled={!data.can.open}
                loading={action.isPending}
                onClick={() => run('open')}
                data-testid="pool-open"
              >
                {t('pool.open')}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={16} />}
                disabled={!data.can.close}
                loading={action.isPending}
                onClick={() => run('close')}
                data-testid="pool-close"
              >
                {t('pool.close')}
              </Button>
            </Group>
          ) : (
            data.can.create && <CreateForm campaignId={campaign.id} title={campaign.title} quota={data.quota} />
          )}
          {data.pool && <AcceptancePanel platform="toloka" campaignId={campaign.id} />}
        </>
      )}
    </Stack>
  );
}

function Summary({ data }: { data: TolokaPoolOutput }) {
  const { t, i18n } = useTranslation('integrations');
  const usd = new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'currency', currency: 'USD' });
  const p = data.pool;
  const facts: [string, ReactNode][] = [
    [
      t('pool.status'),
      p ? (
        <Group key="status" gap={6}>
          <Badge color={STATUS_COLORS[p.status] ?? 'gray'} variant="light" data-testid="pool-status">
            {t(`pool.statuses.${p.status}`, { defaultValue: p.status })}
          </Badge>
          {p.status !== 'OPEN' && p.last_close_reason && (
            <Text size="xs" c="dimmed">
              {t(`pool.reasons.${p.last_close_reason}`, { defaultValue: p.last_close_reason })}
            </Text>
          )}
        </Group>
      ) : (
        <Text key="status" size="sm" c="dimmed">
          {t('pool.none')}
        </Text>
      ),
    ],
    [t('pool.balance'), data.offline ? t('pool.offline') : data.balance === null ? '—' : usd.format(data.balance)],
    [t('pool.token'), data.token ? `${data.token.description} · ${t(`pool.env.${data.token.environment}`)}` : '—'],
    [t('pool.link'), data.quota_link ?? '—'],
  ];
  if (p) {
    facts.push(
      [t('pool.reward'), usd.format(p.reward)],
      [t('pool.overlap'), String(p.overlap)],
      [t('pool.cost'), `${usd.format(p.cost)} · ${t('pool.costHint', { fee: Math.round(TOLOKA_FEE_SHARE * 100) })}`],
      [t('pool.ids'), `${p.toloka_project_id} / ${p.pool_id}`],
    );
  }
  return <FactsCard facts={facts} testId="pool-summary" />;
}

function CreateForm({ campaignId, title, quota }: { campaignId: string; title: string; quota: number | null }) {
  const { t } = useTranslation('integrations');
  const action = useTolokaPoolAction(campaignId);
  const [form, setForm] = useState({
    title,
    instruction: '',
    reward: 0.3 as number | string,
    overlap: (quota ?? 100) as number | string,
    minutes: 60 as number | string,
    sex: 'off' as 'off' | 'man' | 'woman',
    age_min: '' as number | string,
    age_max: '' as number | string,
    countries: [] as string[],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const num = (v: number | string) => (v === '' ? null : Number(v));
  const submit = () => {
    const body = {
      ...form,
      reward: Number(form.reward),
      overlap: num(form.overlap),
      minutes: Number(form.minutes),
      age_min: num(form.age_min),
      age_max: num(form.age_max),
    };
    const parsed = createTolokaPoolInput.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), translateMessage(i.message)])));
      return;
    }
    setErrors({});
    action.mutate(
      { kind: 'create', input: body },
      {
        onError: (error) => {
          setErrors(error instanceof ApiRequestError ? translateFields(error) : {});
          notifyError(error);
        },
      },
    );
  };
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const limits = TOLOKA_POOL_LIMITS;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="pool-create">
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('pool.createTitle')}
        </Title>
        <TextInput
          label={t('pool.taskTitle')}
          value={form.title}
          onChange={(e) => set({ title: e.currentTarget.value })}
          error={errors.title}
          required
        />
        <Textarea
          label={t('pool.instruction')}
          description={t('pool.instructionHint')}
          value={form.instruction}
          onChange={(e) => set({ instruction: e.currentTarget.value })}
          error={errors.instruction}
          autosize
          minRows={2}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <NumberInput
            label={t('pool.reward')}
            prefix="$"
            decimalScale={3}
            min={limits.reward.min}
            max={limits.reward.max}
            step={0.05}
            value={form.reward}
            onChange={(v) => set({ reward: v })}
            error={errors.reward}
          />
          <NumberInput
            label={t('pool.overlap')}
            description={t('pool.overlapHint')}
            min={limits.overlap.min}
            max={limits.overlap.max}
            value={form.overlap}
            onChange={(v) => set({ overlap: v })}
            error={errors.overlap}
          />
          <NumberInput
            label={t('pool.minutes')}
            min={limits.minutes.min}
            max={limits.minutes.max}
            value={form.minutes}
            onChange={(v) => set({ minutes: v })}
            error={errors.minutes}
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('pool.sex')}
          </Text>
          <SegmentedControl
            value={form.sex}
            onChange={(v) => set({ sex: v as typeof form.sex })}
            data={[
              { value: 'off', label: t('pool.sexAll') },
              { value: 'man', label: t('pool.sexMen') },
              { value: 'woman', label: t('pool.sexWomen') },
            ]}
          />
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <NumberInput
            label={t('pool.ageMin')}
            min={limits.age.min}
            max={limits.age.max}
            value={form.age_min}
            onChange={(v) => set({ age_min: v })}
            error={errors.age_min}
          />
          <NumberInput
            label={t('pool.ageMax')}
            min={limits.age.min}
            max={limits.age.max}
            value={form.age_max}
            onChange={(v) => set({ age_max: v })}
            error={errors.age_max}
          />
          <TagsInput
            label={t('pool.countries')}
            description={t('pool.countriesHint')}
            value={form.countries}
            onChange={(v) => set({ countries: v.map((c) => c.toUpperCase()) })}
            error={errors.countries}
            maxTags={50}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={submit}
            loading={action.isPending}
            data-testid="pool-submit"
          >
            {t('pool.create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
