import type { RecruitingPlatform } from '@emolens/contracts';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadError } from '../../components/load-states.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { notifyError } from '../errors/notify.ts';
import { useResearchContext } from '../researches/research-context.ts';
import { AcceptancePanel } from './acceptance-panel.tsx';
import { useRecruitingJob, useRecruitingJobAction } from './platform-api.ts';
import { CreateJobForm } from './platform-form.tsx';
import type { Fact, Format, PlatformState, PlatformView } from './platform-view.ts';
import { FactsCard, RecruitingProblems } from './recruiting-ui.tsx';
import { PLATFORM_VIEWS } from './views/index.ts';

/**
 * campaign/{id}/toloka and campaign/{id}/mturk (spec sections 2, 4, 8; issue 14, items 4 and 6): the research's pool
 * or HIT on a recruiting platform — made from the research with the user's active token there, then run, stopped or
 * expired as the platform allows — with the platform's own state, the balance and the cost; then the approval or
 * rejection of its assignments.
 */
export function RecruitingJobPage({ platform }: { platform: RecruitingPlatform }) {
  const view = PLATFORM_VIEWS[platform];
  const { t } = useTranslation('integrations');
  const { research } = useResearchContext();
  const state = useRecruitingJob(platform, research?.id ?? '');
  const action = useRecruitingJobAction(platform, research?.id ?? '');
  if (!research) return null;
  const data = state.data;
  const texts = view.texts;
  const run = (kind: string, color: string) =>
    openConfirm({
      title: t(`${texts}.${kind}Title`),
      children: <Text size="sm">{t(`${texts}.${kind}Text`)}</Text>,
      labels: { confirm: t(`${texts}.${kind}`), cancel: t('api.cancel') },
      confirmProps: { color, 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => action.mutateAsync({ kind }, { onError: (error) => notifyError(error) }),
    });

  return (
    <Stack gap="lg" maw={1100} data-testid={`${platform}-${texts}`}>
      <PageHeading
        back={{ to: `/cabinet/campaign/${research.id}`, label: t('pool.back') }}
        title={t(`${texts}.title`, { title: research.title })}
        subtitle={t(`${texts}.subtitle`)}
        small
      />
      {state.isError && (
        <InlineLoadError text={t(`${texts}.loadFailed`)} retryLabel={t('api.retry')} onRetry={() => state.refetch()} />
      )}
      {data && (
        <>
          <Summary view={view} data={data} />
          <RecruitingProblems
            problems={data.problems}
            tokensPath={view.tokensPath}
            tokensLabel={t(`${texts}.toTokens`)}
            testId={`${texts}-problems`}
          />
          {view.job(data) ? (
            <Group gap="sm">
              {view.actions.map((a) => (
                <Button
                  key={a.kind}
                  color={a.color}
                  variant={a.variant}
                  leftSection={a.icon}
                  disabled={!data.can[a.kind]}
                  loading={action.isPending}
                  onClick={() => run(a.kind, a.color)}
                  data-testid={`${texts}-${a.kind}`}
                >
                  {t(`${texts}.${a.kind}`)}
                </Button>
              ))}
            </Group>
          ) : (
            data.can.create && (
              <CreateJobForm
                view={view}
                researchId={research.id}
                title={research.title}
                quota={data.quota}
                balance={data.balance}
              />
            )
          )}
          {view.job(data) !== null && <AcceptancePanel platform={platform} researchId={research.id} />}
        </>
      )}
    </Stack>
  );
}

function Summary({ view, data }: { view: PlatformView; data: PlatformState }) {
  const { t, i18n } = useTranslation('integrations');
  const f: Format = {
    t,
    usd: new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'currency', currency: 'USD' }),
    when: new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }),
  };
  const texts = view.texts;
  const job = view.job(data);
  const note = job === null ? null : view.statusNote(job, f);
  const facts: Fact[] = [
    [
      t('pool.status'),
      job === null ? (
        <Text key="status" size="sm" c="dimmed">
          {t(`${texts}.none`)}
        </Text>
      ) : (
        <Group key="status" gap={6}>
          <Badge color={view.statusColor(job)} variant="light" data-testid={`${texts}-status`}>
            {t(`${texts}.statuses.${job.status}`, { defaultValue: job.status })}
          </Badge>
          {note && (
            <Text size="xs" c="dimmed">
              {note}
            </Text>
          )}
        </Group>
      ),
    ],
    [
      t('pool.balance'),
      data.offline ? t(`${texts}.offline`) : data.balance === null ? '—' : f.usd.format(data.balance),
    ],
    [t('pool.token'), data.token ? `${data.token.description} · ${t(`pool.env.${data.token.environment}`)}` : '—'],
    [t(`${texts}.link`), data.quota_link ?? '—'],
  ];
  if (job !== null) {
    facts.push(
      [t('pool.reward'), f.usd.format(job.reward)],
      ...view.sizeFacts(job, f),
      [t('pool.cost'), `${f.usd.format(job.cost)} · ${view.costHint(f)}`],
      ...view.idFacts(job, f),
    );
  }
  return <FactsCard facts={facts} testId={`${texts}-summary`} />;
}
