import { RESPONDENT_LIMITS } from '@emolens/contracts';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCameraOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

let unloadAllowed = false;

/** The page itself goes elsewhere now (restart, the start page): no warning. */
export function allowUnload(): void {
  unloadAllowed = true;
}

/** Spec section 5/2: the browser warns before the page is left while the journey runs. */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (unloadAllowed) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}

/** The browser's Back button while the journey runs: the page stays and asks (`onBack`). */
export function useBackGuard(active: boolean, onBack: () => void): void {
  const onBackRef = useRef(onBack);
  onBackRef.current = onBack;
  useEffect(() => {
    if (!active) return;
    window.history.pushState({ respondentGuard: true }, '');
    const onPop = () => {
      window.history.pushState({ respondentGuard: true }, '');
      onBackRef.current();
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [active]);
}

function isPhone(): boolean {
  return window.matchMedia('(pointer: coarse)').matches && Math.min(window.screen.width, window.screen.height) <= 900;
}

/** On a phone held against the research's orientation: the orientation wanted; otherwise null. */
export function useWrongOrientation(want: 'vertical' | 'horizontal' | 'all'): 'vertical' | 'horizontal' | null {
  const [size, setSize] = useState(() => ({ w: window.innerWidth, h: window.innerHeight }));
  useEffect(() => {
    const onResize = () => setSize({ w: window.innerWidth, h: window.innerHeight });
    window.addEventListener('resize', onResize);
    window.addEventListener('orientationchange', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.removeEventListener('orientationchange', onResize);
    };
  }, []);
  if (want === 'all' || !isPhone()) return null;
  const vertical = size.h >= size.w;
  return (want === 'vertical') === vertical ? null : want;
}

/** Spec section 2: the camera signal is lost; to the start page in 5 s, or OK starts again. */
export function CameraLostDialog({ onRestart, onTimeout }: { onRestart: () => void; onTimeout: () => void }) {
  const { t } = useTranslation('respondent');
  const [left, setLeft] = useState<number>(RESPONDENT_LIMITS.cameraLostRedirectSeconds);
  const timeoutRef = useRef(onTimeout);
  timeoutRef.current = onTimeout;
  useEffect(() => {
    let n: number = RESPONDENT_LIMITS.cameraLostRedirectSeconds;
    const timer = window.setInterval(() => {
      n -= 1;
      setLeft(Math.max(0, n));
      if (n <= 0) {
        window.clearInterval(timer);
        timeoutRef.current();
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Modal opened onClose={() => {}} withCloseButton={false} centered zIndex={1000} size="md">
      <Stack gap="md" align="center" ta="center" data-testid="camera-lost">
        <IconCameraOff size={48} color="var(--mantine-color-red-6)" />
        <Text fw={700} size="xl">
          {t('cameraLost.title')}
        </Text>
        <Text>{t('cameraLost.text', { seconds: left })}</Text>
        <Button size="md" onClick={onRestart} data-testid="camera-lost-ok">
          {t('cameraLost.ok')}
        </Button>
      </Stack>
    </Modal>
  );
}

/** Spec section 2: leaving the page offers to start again. */
export function LeaveDialog({
  onStay,
  onRestart,
  onLeave,
}: {
  onStay: () => void;
  onRestart: () => void;
  onLeave: () => void;
}) {
  const { t } = useTranslation('respondent');
  return (
    <Modal opened onClose={onStay} title={t('leave.title')} centered zIndex={1000}>
      <Stack gap="md" data-testid="leave-dialog">
        <Text>{t('leave.text')}</Text>
        <Group justify="flex-end" wrap="wrap">
          <Button variant="subtle" color="red" onClick={onLeave} data-testid="leave-confirm">
            {t('leave.leave')}
          </Button>
          <Button variant="default" onClick={onRestart} data-testid="leave-restart">
            {t('leave.restart')}
          </Button>
          <Button onClick={onStay} data-testid="leave-stay">
            {t('leave.stay')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
