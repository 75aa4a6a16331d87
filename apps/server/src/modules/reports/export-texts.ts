import type { Language, ReportMetric, SurveySlot } from '@emolens/contracts';
import { FILE_TEXTS } from './files/texts.ts';

/**
 * The column headers of a report's exports (XLSX, CSV) in the four languages. English keeps the machine names the
 * API's scripts read (`engagement_mean`, `looked_share`); the other languages name every column in words. A metric's
 * columns are "metric, statistic"; a segment's are led by its name and N.
 */
/** The areas-of-interest export's columns, in their order. */
export const AREA_COLUMNS = [
  'item',
  'label',
  'area',
  'name',
  'x',
  'y',
  'width',
  'height',
  'from_s',
  'to_s',
  'shape',
  'points',
  'key_frames',
  'respondents',
  'looked',
  'looked_share',
  'time_to_first_fixation_s',
  'dwell_time_s',
  'dwell_share',
  'revisits',
  'fixation_count',
  'clicks',
  /** The filter that made the fixations behind the figures, with its settings (decision 042). */
  'fixation_filter',
] as const;

/** The respondents' quality export's columns, in their order (the questionnaires' answers follow them). */
export const QUALITY_COLUMNS = [
  'session',
  'research',
  'process',
  'participant_id',
  'status',
  'sex',
  'age',
  'started_at',
  'bad_frame_share',
  'accuracy_px',
  'accuracy_percent',
  'accuracy_degrees',
  'precision_px',
  'precision_percent',
  'precision_degrees',
  'distance_cm',
  'grade',
  'included',
  'excluded_reason',
  'resting_happy',
  'mean_engagement',
] as const;

const EXPORT_COLUMNS = [
  ...AREA_COLUMNS,
  ...QUALITY_COLUMNS,
  'second',
  'steps_reached',
  'step',
  'gaze_x',
  'gaze_y',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** The statistics of a curve's point, in the order the curves export gives them. */
export const CURVE_STATS = ['n', 'mean', 'low', 'high', 'share', 'share_low', 'share_high'] as const;
export type CurveStat = (typeof CURVE_STATS)[number];

interface ExportTexts {
  columns: Record<ExportColumn, string>;
  stats: Record<CurveStat, string>;
  slots: Record<SurveySlot, string>;
}

const ru: ExportTexts = {
  columns: {
    item: 'Единица контента',
    label: 'Название',
    second: 'Секунда',
    steps_reached: 'Пройдено шагов',
    area: 'Зона',
    name: 'Название зоны',
    x: 'X, пикс.',
    y: 'Y, пикс.',
    width: 'Ширина, пикс.',
    height: 'Высота, пикс.',
    from_s: 'С, с',
    to_s: 'По, с',
    shape: 'Фигура',
    points: 'Вершины, пикс.',
    key_frames: 'Ключевые кадры (с: фигура)',
    respondents: 'Респондентов',
    looked: 'Посмотрели',
    looked_share: 'Доля посмотревших',
    time_to_first_fixation_s: 'Время до первой фиксации, с',
    dwell_time_s: 'Время просмотра, с',
    dwell_share: 'Доля времени фиксаций',
    revisits: 'Возвраты (в среднем)',
    fixation_count: 'Фиксаций на респондента',
    clicks: 'Клики',
    fixation_filter: 'Фильтр фиксаций и его настройки',
    session: 'Сессия',
    research: 'Исследование',
    process: 'Обработка',
    participant_id: 'ID участника',
    status: 'Статус',
    sex: 'Пол',
    age: 'Возраст',
    started_at: 'Начало',
    bad_frame_share: 'Доля плохих кадров',
    accuracy_px: 'Точность взгляда, пикс.',
    accuracy_percent: 'Точность взгляда, % диагонали',
    accuracy_degrees: 'Точность взгляда, градусы (оценка)',
    precision_px: 'Прецизионность взгляда (СКЗ между отсчётами), пикс.',
    precision_percent: 'Прецизионность взгляда, % диагонали',
    precision_degrees: 'Прецизионность взгляда, градусы (оценка)',
    distance_cm: 'Расстояние до камеры, см (оценка по радужке)',
    grade: 'Оценка качества',
    included: 'В отчёте',
    excluded_reason: 'Причина исключения',
    resting_happy: 'Радость при калибровке',
    mean_engagement: 'Средняя вовлечённость',
    step: 'Шаг задания',
    gaze_x: 'Взгляд X, пикс.',
    gaze_y: 'Взгляд Y, пикс.',
  },
  stats: {
    n: 'N',
    mean: 'среднее',
    low: 'нижняя граница 95%',
    high: 'верхняя граница 95%',
    share: 'доля выше порога',
    share_low: 'доля выше порога, нижняя граница 95%',
    share_high: 'доля выше порога, верхняя граница 95%',
  },
  slots: { screener: 'Скринер', survey: 'Анкета' },
};

const id: ExportTexts = {
  columns: {
    item: 'Item konten',
    label: 'Nama',
    second: 'Detik',
    steps_reached: 'Langkah tercapai',
    area: 'Area',
    name: 'Nama area',
    x: 'X, px',
    y: 'Y, px',
    width: 'Lebar, px',
    height: 'Tinggi, px',
    from_s: 'Dari, dtk',
    to_s: 'Sampai, dtk',
    shape: 'Bentuk',
    points: 'Titik sudut, px',
    key_frames: 'Bingkai kunci (dtk: bentuk)',
    respondents: 'Responden',
    looked: 'Melihat',
    looked_share: 'Porsi yang melihat',
    time_to_first_fixation_s: 'Waktu ke fiksasi pertama, dtk',
    dwell_time_s: 'Waktu tinggal, dtk',
    dwell_share: 'Porsi waktu fiksasi',
    revisits: 'Kunjungan ulang (rata-rata)',
    fixation_count: 'Fiksasi per responden',
    clicks: 'Klik',
    fixation_filter: 'Filter fiksasi dan pengaturannya',
    session: 'Sesi',
    research: 'Riset',
    process: 'Pemrosesan',
    participant_id: 'ID peserta',
    status: 'Status',
    sex: 'Jenis kelamin',
    age: 'Usia',
    started_at: 'Mulai',
    bad_frame_share: 'Porsi frame buruk',
    accuracy_px: 'Akurasi tatapan, px',
    accuracy_percent: 'Akurasi tatapan, % diagonal',
    accuracy_degrees: 'Akurasi tatapan, derajat (perkiraan)',
    precision_px: 'Presisi tatapan (RMS antarsampel), px',
    precision_percent: 'Presisi tatapan, % diagonal',
    precision_degrees: 'Presisi tatapan, derajat (perkiraan)',
    distance_cm: 'Jarak ke kamera, cm (perkiraan dari iris)',
    grade: 'Nilai kualitas',
    included: 'Dalam laporan',
    excluded_reason: 'Alasan dikecualikan',
    resting_happy: 'Senang saat kalibrasi',
    mean_engagement: 'Rata-rata keterlibatan',
    step: 'Langkah tugas',
    gaze_x: 'Tatapan X, px',
    gaze_y: 'Tatapan Y, px',
  },
  stats: {
    n: 'N',
    mean: 'rata-rata',
    low: 'batas bawah 95%',
    high: 'batas atas 95%',
    share: 'porsi di atas ambang',
    share_low: 'porsi di atas ambang, batas bawah 95%',
    share_high: 'porsi di atas ambang, batas atas 95%',
  },
  slots: { screener: 'Penyaring', survey: 'Kuesioner' },
};

const ko: ExportTexts = {
  columns: {
    item: '콘텐츠 항목',
    label: '이름',
    second: '초',
    steps_reached: '도달한 단계',
    area: '영역',
    name: '영역 이름',
    x: 'X(px)',
    y: 'Y(px)',
    width: '너비(px)',
    height: '높이(px)',
    from_s: '시작(초)',
    to_s: '끝(초)',
    shape: '도형',
    points: '꼭짓점(px)',
    key_frames: '키프레임(초: 도형)',
    respondents: '응답자',
    looked: '응시함',
    looked_share: '응시 비율',
    time_to_first_fixation_s: '첫 응시까지(초)',
    dwell_time_s: '체류 시간(초)',
    dwell_share: '응시 시간 비율',
    revisits: '재방문(평균)',
    fixation_count: '응답자당 응시 횟수',
    clicks: '클릭',
    fixation_filter: '응시 필터와 설정',
    session: '세션',
    research: '리서치',
    process: '처리',
    participant_id: '참가자 ID',
    status: '상태',
    sex: '성별',
    age: '나이',
    started_at: '시작',
    bad_frame_share: '불량 프레임 비율',
    accuracy_px: '시선 정확도(px)',
    accuracy_percent: '시선 정확도(대각선 %)',
    accuracy_degrees: '시선 정확도(도, 추정)',
    precision_px: '시선 정밀도(샘플 간 RMS, px)',
    precision_percent: '시선 정밀도(대각선 %)',
    precision_degrees: '시선 정밀도(도, 추정)',
    distance_cm: '카메라까지 거리(cm, 홍채로 추정)',
    grade: '품질 등급',
    included: '리포트 포함',
    excluded_reason: '제외 사유',
    resting_happy: '보정 중 기쁨',
    mean_engagement: '평균 몰입도',
    step: '과제 단계',
    gaze_x: '시선 X(px)',
    gaze_y: '시선 Y(px)',
  },
  stats: {
    n: 'N',
    mean: '평균',
    low: '95% 하한',
    high: '95% 상한',
    share: '기준 초과 비율',
    share_low: '기준 초과 비율 95% 하한',
    share_high: '기준 초과 비율 95% 상한',
  },
  slots: { screener: '스크리너', survey: '설문' },
};

const TEXTS: Partial<Record<Language, ExportTexts>> = { ru, id, ko };

/** The headers of one export in one language. */
export function exportHeaders(language: Language) {
  const t = TEXTS[language];
  const metrics = FILE_TEXTS[language].metrics;
  return {
    column: (key: ExportColumn) => t?.columns[key] ?? key,
    /** A metric's own column (the series export): `engagement`, or its name. */
    metric: (metric: ReportMetric) => (t ? metrics[metric] : metric),
    /** A metric's statistic in the curves export: `engagement_mean`, or "Вовлечённость, среднее". */
    stat: (metric: ReportMetric, stat: CurveStat) => (t ? `${metrics[metric]}, ${t.stats[stat]}` : `${metric}_${stat}`),
    /** A segment's column: its name and N before the statistic. */
    segment: (name: string, n: number, column: string) => `${name} (N = ${n}): ${column}`,
    slot: (slot: SurveySlot) => t?.slots[slot] ?? slot,
  };
}
