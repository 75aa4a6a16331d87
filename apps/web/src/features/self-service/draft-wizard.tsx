import type { SelfServiceTest } from '@emolens/contracts';
import { Button, Divider, Group, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconArrowRight, IconDeviceFloppy, IconExclamationMark } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { ConflictAlert } from '../../components/page-notices.tsx';
import { errorMessage } from '../errors/notify.ts';
import { closeSaveErrors, notifySaveInvalid, showSaveError } from '../errors/save-errors.ts';
import { useResearchMedia } from '../media/api.ts';
import { selfServiceKeys, useSelfServiceAction, useUpdateSelfService } from './api.ts';
import { CategoryPicker } from './category-picker.tsx';
import {
  type DraftValues,
  draftPatch,
  draftValues,
  formErrors,
  formPath,
  STEPS,
  type Step,
  sameValues,
  stepNeedsWork,
  stepOfField,
  validateDraft,
} from './draft-form.ts';
import { AudienceStep, PriceStep, SubmitButton, SurveyStep, VideoStep } from './draft-steps.tsx';
import { notifyActionError } from './notify-action.ts';
import { useSelfServiceFormat } from './self-service-ui.tsx';

/**
 * The version the form was filled from (a save sends its `updated_at`) and the notice of a conflict. A newer version
 * replaces the form unless the user is editing it; while they are, a newer version that changed none of the
 * inputs (the video was probed, say) becomes the base under their edits, so that only a real conflict answers 409.
 */
function useDraftVersion(form: UseFormReturnType<DraftValues>, server: SelfServiceTest) {
  const [base, setBase] = useState(server);
  const [conflict, setConflict] = useState<string | null>(null);

  const fill = (next: SelfServiceTest) => {
    const values = draftValues(next);
    form.setInitialValues(values);
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    setBase(next);
    setConflict(null);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the server's version only
  useEffect(() => {
    if (server.updated_at === base.updated_at) return;
    if (!form.isDirty()) fill(server);
    else if (sameValues(draftValues(server), draftValues(base))) setBase(server);
  }, [server]);

  return { base, conflict, setConflict, fill };
}

/** The test is asked again when the research's files change (an upload ends, a video's probing ends). */
function useRefetchOnMediaChange(test: SelfServiceTest) {
  const client = useQueryClient();
  const media = useResearchMedia(test.campaign_id);
  const signature = media.data ? media.data.items.map((m) => `${m.id}:${m.status}`).join() : null;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (signature === null) return;
    if (seen.current !== null && seen.current !== signature) {
      void client.invalidateQueries({ queryKey: selfServiceKeys.item(test.id) });
    }
    seen.current = signature;
  }, [signature, client, test.id]);
}

/** The first step with something left to do, or the last one. */
function firstOpenStep(test: SelfServiceTest): number {
  const index = STEPS.findIndex((step) => stepNeedsWork(step, test));
  return index < 0 ? STEPS.length - 1 : index;
}

/**
 * A draft, step by step (issue 15, item 2): the video, categories, audience and respondents, the survey, then the
 * price and the sending to moderation. Edits are saved with PATCH (the version they were made on); going to another
 * step saves them first.
 */
export function DraftWizard({
  test,
  onDirtyChange,
}: {
  test: SelfServiceTest;
  /** Told whether there are unsaved edits (the page's own actions wait for them). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useTranslation('selfService');
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const format = useSelfServiceFormat();
  const client = useQueryClient();
  const update = useUpdateSelfService(test.id);
  const action = useSelfServiceAction(test.id);
  const [active, setActive] = useState(() => firstOpenStep(test));
  const form = useForm<DraftValues>({
    mode: 'controlled',
    initialValues: draftValues(test),
    validate: validateDraft,
    // 50 respondents says "at least 100" as soon as the field is left, instead of waiting for the save.
    validateInputOnBlur: ['respondents'],
  });
  const { base, conflict, setConflict, fill } = useDraftVersion(form, test);
  const dirty = form.isDirty();
  const guard = useLeaveGuard(dirty);
  useRefetchOnMediaChange(test);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  /** Saves the edits; true when there is nothing left unsaved. */
  const save = async (): Promise<boolean> => {
    if (!form.isDirty()) return true;
    const checked = form.validate();
    if (checked.hasErrors) {
      notifySaveInvalid();
      const first = Object.keys(checked.errors)[0];
      if (first) setActive(STEPS.indexOf(stepOfField(first)));
      return false;
    }
    try {
      const saved = await update.mutateAsync({ ...draftPatch(form.getValues(), base), updated_at: base.updated_at });
      fill(saved);
      closeSaveErrors();
      notifications.show({ id: 'self-service-saved', color: 'green', message: t('draft.saved'), autoClose: 3000 });
      return true;
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === 'conflict') {
        setConflict(errorMessage(error));
        return false;
      }
      showSaveError(error, { setErrors: form.setErrors, fieldErrors: formErrors });
      if (error instanceof ApiRequestError && error.fields) {
        const first = Object.keys(error.fields)[0];
        if (first) setActive(STEPS.indexOf(stepOfField(formPath(first))));
      }
      return false;
    }
  };

  /** After a conflict: the server's current version, into the form (the edits made on the old one are dropped). */
  const reload = async () => {
    await client.refetchQueries({ queryKey: selfServiceKeys.item(test.id), exact: true });
    const fresh = client.getQueryData<SelfServiceTest>(selfServiceKeys.item(test.id));
    if (fresh) fill(fresh);
  };

  const goTo = async (step: number) => {
    if (step === active) return;
    if (await save()) setActive(step);
  };

  const confirmSubmit = () =>
    openConfirm({
      title: t('submit.title'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('submit.text')}</Text>
          <Text size="sm" fw={600}>
            {t('submit.irreversible')}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('submit.confirm'), cancel: t('actions.cancel') },
      confirmProps: { 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        action.mutateAsync(
          { kind: 'submit' },
          {
            onSuccess: () => {
              guard.allowLeave();
              notifications.show({ color: 'green', message: t('submit.done'), autoClose: 5000 });
            },
            onError: (error) => notifyActionError(error),
          },
        ),
    });

  const busy = update.isPending || action.isPending;
  const step = STEPS[active] ?? 'video';
  const errors = form.errors as Partial<Record<string, string>>;

  const content: Record<Step, ReactNode> = {
    video: <VideoStep test={test} form={form} />,
    categories: (
      <CategoryPicker
        values={form.values.categories}
        onChange={(kind, value) => form.setFieldValue(`categories.${kind}`, value)}
        errors={errors}
        readOnly={false}
      />
    ),
    audience: <AudienceStep form={form} />,
    survey: <SurveyStep test={test} />,
    price: (
      <PriceStep
        test={test}
        values={form.values}
        dirty={dirty}
        submit={
          <SubmitButton
            canSubmit={test.can.submit}
            dirty={dirty}
            busy={busy}
            loading={action.isPending}
            onClick={confirmSubmit}
          />
        }
      />
    ),
  };

  return (
    <Stack gap="lg" data-testid="self-service-draft">
      {conflict && (
        <ConflictAlert
          title={t('draft.conflictTitle')}
          message={conflict}
          text={t('draft.conflictText')}
          reloadLabel={t('draft.conflictReload')}
          onReload={() => void reload()}
          testId="self-service-conflict"
        />
      )}
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <Stepper
            active={active}
            onStepClick={(index) => void goTo(index)}
            allowNextStepsSelect
            size="sm"
            iconSize={phone ? 30 : undefined}
            styles={phone ? { stepBody: { display: 'none' }, separator: { marginInline: 4 } } : undefined}
            data-testid="self-service-stepper"
          >
            {STEPS.map((s) => {
              const open = stepNeedsWork(s, test);
              return (
                <Stepper.Step
                  key={s}
                  label={t(`steps.${s}`)}
                  description={
                    open
                      ? t('steps.todo')
                      : s === 'price'
                        ? test.sessions === null
                          ? '—'
                          : t('steps.sessions', { n: format.number(test.sessions) })
                        : t('steps.done')
                  }
                  color={open ? 'orange' : 'teal'}
                  completedIcon={open ? <IconExclamationMark size={16} /> : undefined}
                  data-testid={`self-service-step-${s}`}
                  data-open={open}
                />
              );
            })}
          </Stepper>
          <Divider />
          <Stack gap={4}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {t('steps.counter', { n: active + 1, total: STEPS.length })}
            </Text>
            <Title order={3} size="h4" data-testid="self-service-step-title">
              {t(`steps.${step}`)}
            </Title>
            <Text size="sm" c="dimmed">
              {t(`steps.${step}Hint`)}
            </Text>
          </Stack>
          <div data-testid={`self-service-step-content-${step}`}>{content[step]}</div>
          <Divider />
          <Group justify="space-between" gap="sm">
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} />}
              disabled={active === 0 || busy}
              onClick={() => void goTo(active - 1)}
            >
              {t('draft.back')}
            </Button>
            <Group gap="sm" justify="flex-end" style={{ flexGrow: 1 }}>
              {dirty && (
                <Text size="sm" c="orange.8" data-testid="self-service-unsaved">
                  {t('draft.unsaved')}
                </Text>
              )}
              {dirty && (
                <Button variant="default" disabled={busy} onClick={() => fill(test)}>
                  {t('draft.discard')}
                </Button>
              )}
              {dirty && (
                <Button
                  variant="light"
                  leftSection={<IconDeviceFloppy size={16} />}
                  loading={update.isPending}
                  onClick={() => void save()}
                  data-testid="self-service-save"
                >
                  {t('draft.save')}
                </Button>
              )}
              {active < STEPS.length - 1 && (
                <Button
                  rightSection={<IconArrowRight size={16} />}
                  disabled={busy}
                  onClick={() => void goTo(active + 1)}
                  data-testid="self-service-next"
                >
                  {dirty ? t('draft.saveAndNext') : t('draft.next')}
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      </Paper>
      {guard.dialog}
    </Stack>
  );
}
