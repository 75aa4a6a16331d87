import { createMturkHitInput, MTURK_FEE, MTURK_HIT_LIMITS, type MturkHitOutput, mturkCost } from '@emolens/contracts';
import {
  Anchor,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconExternalLink, IconPlayerStop, IconPlus } from '@tabler/icons-react';
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
import { useMturkHit, useMturkHitAction } from './api.ts';

const STATUS_COLORS: Record<string, string> = {
  Assignable: 'green',
  Unassignable: 'yellow',
  Reviewable: 'gray',
  Reviewing: 'blue',
  Disposed: 'dark',
};

/**
 * campaign/{id}/mturk (issue 14, item 6): the research's Amazon Mechanical Turk HIT — an ExternalQuestion framing
 * the quota link, made with the user's active Amazon keys and expired to stop it — with MTurk's own state, the
 * balance and the HIT's cost; then the approval or rejection of its assignments.
 */
export function MturkHitPage() {
  const { t } = useTranslation('integrations');
  const { campaign } = useCampaignContext();
  const hit = useMturkHit(campaign?.id ?? '');
  const action = useMturkHitAction(campaign?.id ?? '');
  if (!campaign) return null;
  const data = hit.data;
  const expire = () =>
    openConfirm({
      title: t('hit.expireTitle'),
      children: <Text size="sm">{t('hit.expireText')}</Text>,
      labels: { confirm: t('hit.expire'), cancel: t('api.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => action.mutateAsync({ kind: 'expire' }, { onError: (error) => notifyError(error) }),
    });

  return (
    <Stack gap="lg" maw={1100} data-testid="mturk-hit">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${campaign.id}`} label={t('pool.back')} />
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {t('hit.title', { title: campaign.title })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('hit.subtitle')}
        </Text>
      </Stack>
      {hit.isError && (
        <InlineLoadError text={t('hit.loadFailed')} retryLabel={t('api.retry')} onRetry={() => hit.refetch()} />
      )}
      {data && (
        <>
          <Summary data={data} />
          <RecruitingProblems
            problems={data.problems}
            tokensPath="/cabinet/amazon"
            tokensLabel={t('hit.toTokens')}
            testId="hit-problems"
          />
          {data.hit ? (
            <Group gap="sm">
              <Button
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={16} />}
                disabled={!data.can.expire}
                loading={action.isPending}
                onClick={expire}
                data-testid="hit-expire"
              >
                {t('hit.expire')}
              </Button>
            </Group>
          ) : (
            data.can.create && (
              <CreateForm campaignId={campaign.id} title={campaign.title} quota={data.quota} balance={data.balance} />
            )
          )}
          {data.hit && <AcceptancePanel platform="mturk" campaignId={campaign.id} />}
        </>
      )}
    </Stack>
  );
}

function Summary({ data }: { data: MturkHitOutput }) {
  const { t, i18n } = useTranslation('integrations');
  const usd = new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'currency', currency: 'USD' });
  const when = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' });
  const h = data.hit;
  const facts: [string, ReactNode][] = [
    [
      t('pool.status'),
      h ? (
        <Group key="status" gap={6}>
          <Badge
            color={h.expired ? 'gray' : (STATUS_COLORS[h.status] ?? 'gray')}
            variant="light"
            data-testid="hit-status"
          >
            {t(`hit.statuses.${h.status}`, { defaultValue: h.status })}
          </Badge>
          {h.expires_at && (
            <Text size="xs" c="dimmed">
              {t(h.expired ? 'hit.expiredAt' : 'hit.expiresAt', { when: when.format(new Date(h.expires_at)) })}
            </Text>
          )}
        </Group>
      ) : (
        <Text key="status" size="sm" c="dimmed">
          {t('hit.none')}
        </Text>
      ),
    ],
    [t('pool.balance'), data.offline ? t('hit.offline') : data.balance === null ? '—' : usd.format(data.balance)],
    [t('pool.token'), data.token ? `${data.token.description} · ${t(`pool.env.${data.token.environment}`)}` : '—'],
    [t('hit.link'), data.quota_link ?? '—'],
  ];
  if (h) {
    const { available, pending, submitted, completed } = h.assignments;
    facts.push(
      [t('pool.reward'), usd.format(h.reward)],
      [t('hit.assignments'), String(h.max_assignments)],
      [
        t('hit.progress'),
        available === null
          ? '—'
          : t('hit.progressValue', {
              available,
              pending: pending ?? 0,
              submitted: submitted ?? 0,
              completed: completed ?? 0,
            }),
      ],
      [t('pool.cost'), `${usd.format(h.cost)} · ${t('hit.costHint')}`],
      [t('hit.id'), h.hit_id],
      [
        t('hit.preview'),
        h.preview_url ? (
          <Anchor key="preview" href={h.preview_url} target="_blank" rel="noreferrer" size="sm">
            <Group gap={4} wrap="nowrap">
              {t('hit.previewOpen')}
              <IconExternalLink size={14} />
            </Group>
          </Anchor>
        ) : (
          '—'
        ),
      ],
    );
  }
  return <FactsCard facts={facts} testId="hit-summary" />;
}

function CreateForm({
  campaignId,
  title,
  quota,
  balance,
}: {
  campaignId: string;
  title: string;
  quota: number | null;
  balance: number | null;
}) {
  const { t, i18n } = useTranslation('integrations');
  const usd = new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'currency', currency: 'USD' });
  const action = useMturkHitAction(campaignId);
  const [form, setForm] = useState({
    title,
    // Workers on MTurk read English: the suggested text is English in every language of the cabinet.
    description: t('hit.descriptionDefault', { lng: 'en' }),
    keywords: '',
    reward: 0.5 as number | string,
    max_assignments: (quota ?? 100) as number | string,
    minutes: 60 as number | string,
    days: 7 as number | string,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const body = {
    ...form,
    reward: Number(form.reward),
    max_assignments: form.max_assignments === '' ? null : Number(form.max_assignments),
    minutes: Number(form.minutes),
    days: Number(form.days),
  };
  const n = body.max_assignments ?? quota ?? 0;
  const cost = Number.isFinite(body.reward) && n > 0 ? mturkCost(body.reward, n) : null;
  const submit = () => {
    const parsed = createMturkHitInput.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), translateMessage(i.message)])));
      return;
    }
    setErrors({});
    openConfirm({
      title: t('hit.createTitle'),
      children: <Text size="sm">{t('hit.createText', { cost: cost === null ? '—' : usd.format(cost) })}</Text>,
      labels: { confirm: t('hit.create'), cancel: t('api.cancel') },
      confirmProps: { color: 'green', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        action.mutateAsync(
          { kind: 'create', input: body },
          {
            onError: (error) => {
              setErrors(error instanceof ApiRequestError ? translateFields(error) : {});
              notifyError(error);
            },
          },
        ),
    });
  };
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const limits = MTURK_HIT_LIMITS;
  const short = cost !== null && balance !== null && balance < cost;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="hit-create">
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('hit.createTitle')}
        </Title>
        <TextInput
          label={t('hit.taskTitle')}
          value={form.title}
          onChange={(e) => set({ title: e.currentTarget.value })}
          error={errors.title}
          required
        />
        <Textarea
          label={t('hit.description')}
          description={t('hit.descriptionHint')}
          value={form.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
          error={errors.description}
          autosize
          minRows={2}
          required
        />
        <TextInput
          label={t('hit.keywords')}
          description={t('hit.keywordsHint')}
          value={form.keywords}
          onChange={(e) => set({ keywords: e.currentTarget.value })}
          error={errors.keywords}
        />
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
          <NumberInput
            label={t('pool.reward')}
            prefix="$"
            decimalScale={2}
            fixedDecimalScale
            min={limits.reward.min}
            max={limits.reward.max}
            step={0.05}
            value={form.reward}
            onChange={(v) => set({ reward: v })}
            error={errors.reward}
          />
          <NumberInput
            label={t('hit.assignments')}
            description={t('pool.overlapHint')}
            min={limits.assignments.min}
            max={limits.assignments.max}
            value={form.max_assignments}
            onChange={(v) => set({ max_assignments: v })}
            error={errors.max_assignments}
          />
          <NumberInput
            label={t('pool.minutes')}
            min={limits.minutes.min}
            max={limits.minutes.max}
            value={form.minutes}
            onChange={(v) => set({ minutes: v })}
            error={errors.minutes}
          />
          <NumberInput
            label={t('hit.days')}
            min={limits.days.min}
            max={limits.days.max}
            value={form.days}
            onChange={(v) => set({ days: v })}
            error={errors.days}
          />
        </SimpleGrid>
        <Text size="sm" c={short ? 'red' : 'dimmed'} data-testid="hit-cost">
          {cost === null
            ? t('hit.costUnknown')
            : t('hit.costLine', {
                cost: usd.format(cost),
                fee: Math.round((MTURK_FEE.share + (n >= MTURK_FEE.manyFrom ? MTURK_FEE.manyShare : 0)) * 100),
              })}
          {short && ` ${translateMessage({ key: 'pool.notEnoughFunds' })}`}
        </Text>
        <Group justify="flex-end">
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={submit}
            loading={action.isPending}
            data-testid="hit-submit"
          >
            {t('hit.create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
