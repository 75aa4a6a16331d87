import { type Limits, RECRUITING_PLATFORM_CONTRACTS } from '@emolens/contracts';
import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useRecruitingJobAction } from './platform-api.ts';
import { bodyOf } from './platform-body.ts';
import type { Field, FieldValue, PlatformView } from './platform-view.ts';

/**
 * The "make it" form of a platform's pool or HIT (spec sections 2, 4; issue 14, items 4 and 6): the view's fields,
 * checked with the platform's contract before sending; with an estimate, the cost as it is filled in (red when the
 * balance is short) and a confirmation of it before the platform is asked.
 */
export function CreateJobForm({
  view,
  researchId,
  title,
  quota,
  balance,
}: {
  view: PlatformView;
  researchId: string;
  title: string;
  quota: number | null;
  balance: number | null;
}) {
  const { t, i18n } = useTranslation('integrations');
  const usd = new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'currency', currency: 'USD' });
  const contract = RECRUITING_PLATFORM_CONTRACTS[view.platform];
  const limits: Record<string, Limits> = contract.limits;
  const action = useRecruitingJobAction(view.platform, researchId);
  const [values, setValues] = useState(() => view.form.initial({ title, quota, t }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const body = bodyOf(view.form.rows, values);
  const estimate = view.form.estimate;
  const n = estimate ? ((body[estimate.respondents] as number | null) ?? quota ?? 0) : 0;
  const reward = Number(body.reward);
  const cost = estimate && Number.isFinite(reward) && n > 0 ? contract.cost(reward, n) : null;
  const short = cost !== null && balance !== null && balance < cost;
  const texts = view.texts;

  const create = () =>
    action.mutateAsync(
      { kind: 'create', input: body },
      {
        onError: (error) => {
          setErrors(error instanceof ApiRequestError ? translateFields(error) : {});
          notifyError(error);
        },
      },
    );
  const submit = () => {
    const parsed = contract.create.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), translateMessage(i.message)])));
      return;
    }
    setErrors({});
    if (!estimate) {
      create().catch(() => undefined);
      return;
    }
    openConfirm({
      title: t(`${texts}.createTitle`),
      children: <Text size="sm">{t(`${texts}.createText`, { cost: cost === null ? '—' : usd.format(cost) })}</Text>,
      labels: { confirm: t(`${texts}.create`), cancel: t('api.cancel') },
      confirmProps: { color: 'green', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: create,
    });
  };
  const set = (name: string, value: FieldValue) => setValues((v) => ({ ...v, [name]: value }));
  const input = (field: Field) => (
    <FieldInput
      key={field.name}
      field={field}
      value={values[field.name] ?? ''}
      error={errors[field.name]}
      limits={field.kind === 'number' ? limits[field.limits] : undefined}
      onChange={(value) => set(field.name, value)}
    />
  );

  return (
    <SectionCard testId={`${texts}-create`}>
      <Stack gap="md">
        <SectionTitle title={t(`${texts}.createTitle`)} />
        {view.form.rows.map((row) =>
          'grid' in row ? (
            <SimpleGrid key={row.grid.map((f) => f.name).join()} cols={row.cols} spacing="md">
              {row.grid.map(input)}
            </SimpleGrid>
          ) : (
            input(row)
          ),
        )}
        {estimate && (
          <Text size="sm" c={short ? 'red' : 'dimmed'} data-testid={`${texts}-cost`}>
            {cost === null
              ? t(`${texts}.costUnknown`)
              : t(`${texts}.costLine`, { cost: usd.format(cost), fee: estimate.feePercent(n) })}
            {short && ` ${translateMessage({ key: 'pool.notEnoughFunds' })}`}
          </Text>
        )}
        <Group justify="flex-end">
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={submit}
            loading={action.isPending}
            data-testid={`${texts}-submit`}
          >
            {t(`${texts}.create`)}
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}

function FieldInput({
  field,
  value,
  error,
  limits,
  onChange,
}: {
  field: Field;
  value: FieldValue;
  error: string | undefined;
  limits: Limits | undefined;
  onChange: (value: FieldValue) => void;
}): ReactNode {
  const { t } = useTranslation('integrations');
  const label = t(field.label);
  const description = field.hint ? t(field.hint) : undefined;
  switch (field.kind) {
    case 'text':
      return (
        <TextInput
          label={label}
          description={description}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={error}
          required={field.required}
        />
      );
    case 'textarea':
      return (
        <Textarea
          label={label}
          description={description}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={error}
          autosize
          minRows={2}
          required={field.required}
        />
      );
    case 'number':
      return (
        <NumberInput
          label={label}
          description={description}
          prefix={field.prefix}
          decimalScale={field.decimals}
          fixedDecimalScale={field.fixedDecimals}
          min={limits?.min}
          max={limits?.max}
          step={field.step}
          value={value as number | string}
          onChange={onChange}
          error={error}
        />
      );
    case 'choice':
      return (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {label}
          </Text>
          <SegmentedControl
            value={String(value)}
            onChange={onChange}
            data={field.options.map((o) => ({ value: o.value, label: t(o.label) }))}
          />
        </Stack>
      );
    case 'select':
      return (
        <Select
          label={label}
          description={description}
          value={String(value)}
          onChange={(v) => onChange(v ?? '')}
          data={field.options.map((o) => ({ value: o.value, label: t(o.label) }))}
          allowDeselect={false}
          error={error}
          data-testid={`field-${field.name}`}
        />
      );
    case 'checks':
      return (
        <Checkbox.Group
          label={label}
          description={description}
          value={value as string[]}
          onChange={onChange}
          error={error}
        >
          <Group gap="md" mt={6}>
            {field.options.map((o) => (
              <Checkbox key={o.value} value={o.value} label={t(o.label)} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'switch':
      return (
        <Switch
          label={label}
          description={description}
          checked={value === 'on'}
          onChange={(e) => onChange(e.currentTarget.checked ? 'on' : '')}
          error={error}
        />
      );
    case 'countries':
      return (
        <TagsInput
          label={label}
          description={description}
          value={value as string[]}
          onChange={(v) => onChange(v.map((c) => c.toUpperCase()))}
          error={error}
          maxTags={field.max}
        />
      );
  }
}
