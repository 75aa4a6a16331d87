import { CONTENT_LIMITS } from '@emolens/contracts';
import { Divider, Group, NumberInput, type NumberInputProps, Stack, Text, Title } from '@mantine/core';
import type { FormErrors, UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { translateMessage } from '../../i18n/messages.ts';
import type { ResearchFormValues } from '../researches/research-form.ts';

type T = (key: string, options?: Record<string, unknown>) => string;
export type ContentForm = UseFormReturnType<ResearchFormValues>;

/**
 * The messages of `schema` for `value`, at the form's paths under `prefix` (the first one of each
 * field, translated), as the research form's validator gives them on save.
 */
export function errorsOf(schema: z.ZodType, value: unknown, prefix: string): FormErrors {
  const result = schema.safeParse(value);
  const errors: FormErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = [prefix, ...issue.path.map(String)].join('.');
    if (!(path in errors)) errors[path] = translateMessage(issue.message);
  }
  return errors;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`);

/**
 * Puts `errors` in place of the form's errors under `prefix`, so that the messages follow the
 * content while it is edited (a fixed field loses its message, a moved row takes its own). With
 * `always` false this happens only once a save has shown errors there: a row being filled in does
 * not turn red before the user tries to save it.
 */
export function refreshErrors(form: ContentForm, prefix: string, errors: FormErrors, always: boolean): void {
  form.setErrors((current) => {
    const keys = Object.keys(current);
    if (!always && !keys.some((key) => under(key, prefix))) return current;
    const kept = Object.fromEntries(Object.entries(current).filter(([key]) => !under(key, prefix)));
    return { ...kept, ...errors };
  });
}

/**
 * A number of seconds in a number input: the input holds '' while empty, the form NaN (which the
 * contract refuses as a missing value), so the type of the content stays a number.
 */
export function secondsFromInput(value: number | string): number {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

export function secondsToInput(value: number): number | string {
  return Number.isFinite(value) ? value : '';
}

/** A duration of the content in whole seconds (within the contract's limits), its unit inside the input. */
export function SecondsInput({
  seconds,
  onSeconds,
  ...props
}: Omit<NumberInputProps, 'value' | 'onChange'> & { seconds: number; onSeconds: (seconds: number) => void }) {
  const { t } = useTranslation('content');
  return (
    <NumberInput
      min={CONTENT_LIMITS.seconds.min}
      max={CONTENT_LIMITS.seconds.max}
      step={1}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      rightSection={
        <Text size="xs" c="dimmed">
          {t('units.secondsShort')}
        </Text>
      }
      rightSectionPointerEvents="none"
      hideControls
      value={secondsToInput(seconds)}
      onChange={(value) => onSeconds(secondsFromInput(value))}
      {...props}
    />
  );
}

/** A duration as hours, minutes and seconds ("1 min 20 s"); `translate` is the `t` of the `content` namespace. */
export function formatDuration(totalSeconds: number, translate: T): string {
  const total = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts: string[] = [];
  if (hours) parts.push(translate('units.hours', { value: hours }));
  if (minutes) parts.push(translate('units.minutes', { value: minutes }));
  if (seconds || parts.length === 0) parts.push(translate('units.seconds', { value: seconds }));
  return parts.join(' ');
}

/** An id for new content (a shelf display); `crypto.randomUUID` exists only on secure origins. */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The list with the item at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** The heading of a content editor in the research form: its title, what it holds, and `children` at the right. */
export function EditorHeading({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <Divider />
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={4} size="h5">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {subtitle}
          </Text>
        </Stack>
        {children}
      </Group>
    </>
  );
}

/** A message about a whole list of the content, in red; nothing when there is none. */
export function FormError({ error, testId }: { error: ReactNode; testId?: string }) {
  if (!error) return null;
  return (
    <Text size="sm" c="red" data-testid={testId}>
      {error}
    </Text>
  );
}
