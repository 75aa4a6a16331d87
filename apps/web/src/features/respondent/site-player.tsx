import { figmaEmbedUrl, nodeIdKey, type Point, type WebTask } from '@emolens/contracts';
import { Badge, Box, Button, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { IconArrowRight, IconListDetails } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PlayerProps, usePreload, useShownTimer } from './content-players.tsx';
import { CheckpointDotScreen, useDriftBreak } from './drift-break.tsx';
import { countContent } from './drift-checkpoints.ts';
import type { EventInput } from './event-log.ts';
import { FullScreen, TaskCardScreen } from './full-screen.tsx';

/** A click this close to a point (px on screen, or this share of the image's width) hits it. */
const HIT_PX = 28;
const HIT_SHARE = 0.04;

/**
 * Website-prototype tasks: each task's description, then the prototype (the task's screenshot with its
 * target points, or the Figma embed) until the final point is reached (success) or the time limit
 * passes (fail).
 */
export function SitePlayer({ research, log, blocked, onEnd, onLoadError, drift }: PlayerProps) {
  const tasks = research.web_resource_scenario;
  const [index, setIndex] = useState(0);
  const task = tasks[index];
  const startedAt = useRef(0);
  useEffect(() => {
    if (!task) onEnd();
    else startedAt.current = performance.now();
  }, [task, onEnd]);
  const checkpoint = useDriftBreak(drift, research.drift_checkpoints, log);
  // Between two tasks a due checkpoint shows its dot; the next task is shown (and logged) after it.
  const done = () => {
    countContent(drift, performance.now() - startedAt.current);
    if (index + 1 < tasks.length) checkpoint.pass(() => setIndex((i) => i + 1));
    else setIndex((i) => i + 1);
  };
  if (!task) return null;
  if (checkpoint.dot) return <CheckpointDotScreen dot={checkpoint.dot} />;
  return (
    <TaskRun
      key={task.id}
      index={index}
      task={task}
      image={research.images[task.image] ?? null}
      figma={research.is_figma ? (figmaEmbedUrl(research.site_url) ?? null) : null}
      autoShow={research.auto_show_task_description && task.autoShowTaskDescription}
      limitSeconds={task.is_timeout ? task.timeout || research.task_time_limit_seconds : null}
      log={log}
      blocked={blocked}
      onDone={done}
      onLoadError={onLoadError}
    />
  );
}

interface TaskRunProps {
  index: number;
  task: WebTask;
  image: string | null;
  figma: string | null;
  autoShow: boolean;
  limitSeconds: number | null;
  log: (event: EventInput) => void;
  blocked: boolean;
  onDone: () => void;
  onLoadError: () => void;
}

function TaskRun({
  index,
  task,
  image,
  figma,
  autoShow,
  limitSeconds,
  log,
  blocked,
  onDone,
  onLoadError,
}: TaskRunProps) {
  const { t } = useTranslation('respondent');
  const [stage, setStage] = useState<'task' | 'run' | 'result'>(autoShow ? 'task' : 'run');
  const [showTask, setShowTask] = useState(false);
  const [result, setResult] = useState<'success' | 'fail' | null>(null);
  const reached = useRef(new Set<number>());
  const logRef = useRef(log);
  logRef.current = log;
  const ready = usePreload(figma || !image ? [] : [image], onLoadError);

  useEffect(() => {
    logRef.current({ type: 'task_shown', task: index });
  }, [index]);

  const finish = useCallback(
    (outcome: 'success' | 'fail') => {
      setResult((r) => {
        if (r) return r;
        logRef.current({ type: 'task_result', task: index, result: outcome });
        setStage('result');
        return outcome;
      });
    },
    [index],
  );

  useShownTimer(stage === 'run' && limitSeconds ? limitSeconds : null, blocked, () => finish('fail'));
  useShownTimer(stage === 'result' ? 2 : null, false, onDone);

  // Figma: the embed tells which screen it shows; reaching a step's screen is the step.
  useEffect(() => {
    if (!figma || stage !== 'run') return;
    const onMessage = (event: MessageEvent) => {
      if (!/^https:\/\/([\w-]+\.)?figma\.com$/.test(event.origin)) return;
      const data = event.data as { type?: string; data?: Record<string, unknown> } | null;
      if (data?.type === 'MOUSE_PRESS_OR_RELEASE') {
        const pos = data.data?.nearestScrollingFrameMousePosition as { x?: number; y?: number } | undefined;
        logRef.current({ type: 'click', x: Math.round(pos?.x ?? 0), y: Math.round(pos?.y ?? 0), target: 'figma' });
        if (task.anyIsFinal) finish('success');
      }
      if (data?.type === 'PRESENTED_NODE_CHANGED') {
        const node = String(data.data?.presentedNodeId ?? '');
        task.steps.forEach((step, i) => {
          if (nodeIdKey(step.targetNodeId) !== nodeIdKey(node) || reached.current.has(i)) return;
          reached.current.add(i);
          logRef.current({ type: 'task_step', task: index, step: i });
          if (step.isFinal) finish('success');
        });
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [figma, stage, task, index, finish]);

  const description = (
    <Text size="xl" style={{ whiteSpace: 'pre-wrap' }} data-testid="task-description">
      {task.description}
    </Text>
  );

  if (stage === 'task') {
    return (
      <TaskCardScreen testId="task-screen">
        <Group gap="xs">
          <IconListDetails />
          <Title order={2}>{t('task.title', { number: index + 1 })}</Title>
        </Group>
        {description}
        {limitSeconds && <Text c="dimmed">{t('task.limit', { seconds: limitSeconds })}</Text>}
        <Button
          size="lg"
          rightSection={<IconArrowRight size={18} />}
          onClick={() => setStage('run')}
          data-testid="task-start"
        >
          {t('task.start')}
        </Button>
      </TaskCardScreen>
    );
  }

  return (
    <FullScreen testId="task-run" dark>
      {figma ? (
        <iframe
          title={t('task.prototype')}
          src={figma}
          style={{ width: '100%', height: '100%', border: 0, display: 'block' }}
          allow="fullscreen"
        />
      ) : ready && image ? (
        <Screenshot
          src={image}
          task={task}
          onClick={(x, y, hit) => {
            logRef.current({
              type: 'click',
              x,
              y,
              target: hit === 'final' ? 'final' : hit === null ? undefined : `point-${hit}`,
            });
            if (typeof hit === 'number' && !reached.current.has(hit)) {
              reached.current.add(hit);
              logRef.current({ type: 'task_step', task: index, step: hit });
            }
            if (hit === 'final' || task.anyIsFinal) finish('success');
          }}
        />
      ) : (
        <Loader color="gray.4" style={{ position: 'absolute', left: '50%', top: '50%' }} />
      )}
      <Box pos="absolute" top={12} left={12} right={12} style={{ pointerEvents: 'none' }}>
        <Group justify="space-between" align="flex-start">
          <Button
            size="xs"
            variant="white"
            style={{ pointerEvents: 'auto' }}
            leftSection={<IconListDetails size={16} />}
            onClick={() => setShowTask((s) => !s)}
          >
            {t('task.show')}
          </Button>
          {result && (
            <Badge size="xl" color={result === 'success' ? 'teal' : 'gray'} data-testid="task-result">
              {t(`task.result.${result}`)}
            </Badge>
          )}
        </Group>
        {showTask && (
          <Paper p="md" mt="xs" maw={520} radius="md" shadow="md" style={{ pointerEvents: 'auto' }}>
            {description}
          </Paper>
        )}
      </Box>
    </FullScreen>
  );
}

/** The screenshot, contained; a click is mapped onto it and tested against the task's points. */
function Screenshot({
  src,
  task,
  onClick,
}: {
  src: string;
  task: WebTask;
  onClick: (x: number, y: number, hit: number | 'final' | null) => void;
}) {
  const ref = useRef<HTMLImageElement>(null);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the prototype is a picture clicked where the respondent looks.
    // biome-ignore lint/a11y/noStaticElementInteractions: the picture is the content; a click on it is the respondent's answer.
    <img
      ref={ref}
      src={src}
      alt=""
      draggable={false}
      data-testid="task-screenshot"
      style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block', userSelect: 'none' }}
      onClick={(event) => {
        const img = ref.current;
        if (!img) return;
        const box = contained(img);
        const fx = (event.clientX - box.left) / box.width;
        const fy = (event.clientY - box.top) / box.height;
        const near = (p: Point | null) =>
          p !== null &&
          Math.hypot((fx - p.x) * box.width, (fy - p.y) * box.height) <= Math.max(HIT_PX, HIT_SHARE * box.width);
        let hit: number | 'final' | null = null;
        if (near(task.final_point)) hit = 'final';
        else {
          const i = task.additional_points.findIndex((p) => near(p));
          if (i >= 0) hit = i;
        }
        onClick(Math.round(event.clientX), Math.round(event.clientY), hit);
      }}
    />
  );
}

/** Where an `object-fit: contain` image's picture lies on the screen. */
function contained(img: HTMLImageElement): { left: number; top: number; width: number; height: number } {
  const rect = img.getBoundingClientRect();
  const ratio = img.naturalWidth && img.naturalHeight ? img.naturalWidth / img.naturalHeight : rect.width / rect.height;
  let width = rect.width;
  let height = width / ratio;
  if (height > rect.height) {
    height = rect.height;
    width = height * ratio;
  }
  return { left: rect.left + (rect.width - width) / 2, top: rect.top + (rect.height - height) / 2, width, height };
}
