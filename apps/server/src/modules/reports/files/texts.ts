import type { BenchmarkMetric, Language, ReportMetric, ReportType } from '@emolens/contracts';

/**
 * The words of a report's presentation and video export, in the four languages of the product. The cabinet's
 * texts live in the web's locale files; these are the server's own (only files it renders use them).
 */
export interface FileTexts {
  metrics: Record<ReportMetric, string>;
  types: Record<ReportType, string>;
  benchmark: Record<BenchmarkMetric, string>;
  title: string;
  built: string;
  sample: string;
  included: string;
  excluded: string;
  men: string;
  women: string;
  sexUnknown: string;
  age: string;
  grades: string;
  curves: string;
  emotions: string;
  segments: string;
  method: string;
  bandNote: string;
  /** Under a chart that draws N as grey bars. */
  nArea: string;
  /** Under a chart of segments: each line's N is in the legend. */
  segmentN: string;
  /** A time in seconds. */
  seconds: string;
  /** The column headers of a number question's summary. */
  numberColumns: [string, string, string, string, string];
  second: string;
  respondentsAxis: string;
  moments: string;
  peak: string;
  drop: string;
  heatmap: string;
  heatmapNote: string;
  areas: string;
  areaColumns: [string, string, string, string, string, string, string];
  tasks: string;
  taskColumns: [string, string, string, string, string];
  benchmarkTitle: string;
  benchmarkColumns: [string, string, string];
  benchmarkBase: string;
  questionnaire: string;
  answered: string;
  engineVersions: string;
  step: string;
  none: string;
  /** The fixation filter and its settings (decision 042); a report built before it: the earlier filter. */
  fixationFilter: string;
  fixationSettings: string;
  fixationEarlier: string;
  fixationNoise: { median: string; average: string };
}

const en: FileTexts = {
  metrics: {
    engagement: 'Engagement',
    valence: 'Valence',
    attention: 'Attention',
    smile: 'Smile',
    neutral: 'Neutral',
    happy: 'Happy',
    surprise: 'Surprise',
    sad: 'Sad',
    angry: 'Angry',
    disgust: 'Disgust',
    fear: 'Fear',
  },
  types: { shift: 'Raw values (shift)', calibration_subtraction: 'Calibration subtraction' },
  benchmark: {
    mean_engagement: 'Mean engagement',
    peak_engagement: 'Peak engagement',
    mean_valence: 'Mean valence',
    mean_attention: 'Mean attention',
    score: 'Overall score',
  },
  title: 'Emotion and attention report',
  built: 'Built {date}',
  sample: 'Sample',
  included: 'Respondents in the report',
  excluded: 'Left out (quality or the report’s filters)',
  men: 'Men',
  women: 'Women',
  sexUnknown: 'Sex not given',
  age: 'Age: median {median}, {min}–{max}',
  grades: 'Quality grades A / B / C',
  curves: 'Engagement, valence and attention',
  emotions: 'Expressions',
  segments: 'Engagement by segment',
  method: 'How these numbers were made',
  bandNote: "Mean across respondents with a 95% confidence band (Student's t-interval).",
  nArea:
    'Grey area at the bottom: N, the respondents behind each point (right axis); the band is faint where fewer than 5.',
  segmentN: 'Each segment’s N is in the legend.',
  seconds: '{value} s',
  numberColumns: ['Mean', 'Median', 'Standard deviation', 'Minimum', 'Maximum'],
  second: 'Second',
  respondentsAxis: 'N',
  moments: 'Key moments',
  peak: 'Peak',
  drop: 'Drop',
  heatmap: 'Where people looked',
  heatmapNote: 'Gaze density of {n} respondents; the kernel is never narrower than their measured accuracy ({px} px).',
  areas: 'Areas of interest',
  areaColumns: ['Area', 'Looked', 'Time to first fixation, s', 'Dwell, s', 'Dwell share', 'Revisits', 'Fixations'],
  tasks: 'Tasks',
  taskColumns: ['Task', 'Success', 'Fail', 'Time to success (median), s', 'Clicks to success'],
  benchmarkTitle: 'Benchmark: {subtype}',
  benchmarkColumns: ['Metric', 'Value', 'Percentile'],
  benchmarkBase: 'Base: {researches} researches of this installation and {imported} imported norms.',
  questionnaire: 'Questionnaire',
  answered: '{n} answered',
  engineVersions: 'Engine',
  step: 'One point = {step} s',
  none: '—',
  fixationFilter: 'Fixations',
  fixationNoise: { median: 'moving median of {n} samples', average: 'moving average of {n} samples' },
  fixationSettings:
    'gap fill-in {gap} ms, noise reduction {noise}, velocity window {window} ms, threshold {threshold}°/s, merge within {mergeGap} ms and {mergeAngle}°, discard under {minDuration} ms, degrees at {distance} cm',
  fixationEarlier: 'the earlier filter (velocity in content diagonals); rebuild for I-VT (Olsen 2012)',
};

const ru: FileTexts = {
  metrics: {
    engagement: 'Вовлечённость',
    valence: 'Валентность',
    attention: 'Внимание',
    smile: 'Улыбка',
    neutral: 'Нейтральность',
    happy: 'Радость',
    surprise: 'Удивление',
    sad: 'Грусть',
    angry: 'Гнев',
    disgust: 'Отвращение',
    fear: 'Страх',
  },
  types: { shift: 'Исходные значения (сдвиг)', calibration_subtraction: 'Вычитание калибровки' },
  benchmark: {
    mean_engagement: 'Средняя вовлечённость',
    peak_engagement: 'Пиковая вовлечённость',
    mean_valence: 'Средняя валентность',
    mean_attention: 'Среднее внимание',
    score: 'Общая оценка',
  },
  title: 'Отчёт об эмоциях и внимании',
  built: 'Построен {date}',
  sample: 'Выборка',
  included: 'Респондентов в отчёте',
  excluded: 'Не вошли (качество или фильтры отчёта)',
  men: 'Мужчины',
  women: 'Женщины',
  sexUnknown: 'Пол не указан',
  age: 'Возраст: медиана {median}, {min}–{max}',
  grades: 'Оценки качества A / B / C',
  curves: 'Вовлечённость, валентность и внимание',
  emotions: 'Выражения лица',
  segments: 'Вовлечённость по сегментам',
  method: 'Как получены эти числа',
  bandNote: 'Среднее по респондентам с 95-процентным доверительным интервалом (t-интервал Стьюдента).',
  nArea:
    'Серая область внизу — N, число респондентов за каждой точкой (правая ось); где их меньше 5, интервал бледный.',
  segmentN: 'N каждого сегмента указано в легенде.',
  seconds: '{value} с',
  numberColumns: ['Среднее', 'Медиана', 'Стандартное отклонение', 'Минимум', 'Максимум'],
  second: 'Секунда',
  respondentsAxis: 'N',
  moments: 'Ключевые моменты',
  peak: 'Пик',
  drop: 'Спад',
  heatmap: 'Куда смотрели',
  heatmapNote: 'Плотность взгляда {n} респондентов; ядро не уже их измеренной точности ({px} пикс.).',
  areas: 'Зоны интереса',
  areaColumns: [
    'Зона',
    'Посмотрели',
    'Время до первой фиксации, с',
    'Время просмотра, с',
    'Доля просмотра',
    'Возвраты',
    'Фиксации',
  ],
  tasks: 'Задания',
  taskColumns: ['Задание', 'Успех', 'Неудача', 'Время до успеха (медиана), с', 'Кликов до успеха'],
  benchmarkTitle: 'Бенчмарк: {subtype}',
  benchmarkColumns: ['Метрика', 'Значение', 'Процентиль'],
  benchmarkBase: 'База: {researches} исследований этой установки и {imported} импортированных норм.',
  questionnaire: 'Анкета',
  answered: 'Ответили: {n}',
  engineVersions: 'Движок',
  step: 'Одна точка = {step} с',
  none: '—',
  fixationFilter: 'Фиксации',
  fixationNoise: { median: 'скользящая медиана по {n} отсчётам', average: 'скользящее среднее по {n} отсчётам' },
  fixationSettings:
    'заполнение пропусков {gap} мс, подавление шума {noise}, окно скорости {window} мс, порог {threshold}°/с, объединение в пределах {mergeGap} мс и {mergeAngle}°, отброс короче {minDuration} мс, градусы при {distance} см',
  fixationEarlier: 'прежний фильтр (скорость в диагоналях контента); пересоберите отчёт для I-VT (Olsen 2012)',
};

const id: FileTexts = {
  metrics: {
    engagement: 'Keterlibatan',
    valence: 'Valensi',
    attention: 'Perhatian',
    smile: 'Senyum',
    neutral: 'Netral',
    happy: 'Senang',
    surprise: 'Terkejut',
    sad: 'Sedih',
    angry: 'Marah',
    disgust: 'Jijik',
    fear: 'Takut',
  },
  types: { shift: 'Nilai mentah (shift)', calibration_subtraction: 'Pengurangan kalibrasi' },
  benchmark: {
    mean_engagement: 'Rata-rata keterlibatan',
    peak_engagement: 'Puncak keterlibatan',
    mean_valence: 'Rata-rata valensi',
    mean_attention: 'Rata-rata perhatian',
    score: 'Skor keseluruhan',
  },
  title: 'Laporan emosi dan perhatian',
  built: 'Dibuat {date}',
  sample: 'Sampel',
  included: 'Responden dalam laporan',
  excluded: 'Tidak disertakan (kualitas atau filter laporan)',
  men: 'Pria',
  women: 'Wanita',
  sexUnknown: 'Jenis kelamin tidak diisi',
  age: 'Usia: median {median}, {min}–{max}',
  grades: 'Nilai kualitas A / B / C',
  curves: 'Keterlibatan, valensi, dan perhatian',
  emotions: 'Ekspresi',
  segments: 'Keterlibatan per segmen',
  method: 'Bagaimana angka ini dibuat',
  bandNote: 'Rata-rata antar-responden dengan pita kepercayaan 95% (interval-t Student).',
  nArea:
    'Area abu-abu di bawah: N, jumlah responden di balik setiap titik (sumbu kanan); pita pudar bila kurang dari 5.',
  segmentN: 'N setiap segmen ada di legenda.',
  seconds: '{value} dtk',
  numberColumns: ['Rata-rata', 'Median', 'Simpangan baku', 'Minimum', 'Maksimum'],
  second: 'Detik',
  respondentsAxis: 'N',
  moments: 'Momen kunci',
  peak: 'Puncak',
  drop: 'Penurunan',
  heatmap: 'Ke mana orang melihat',
  heatmapNote: 'Kepadatan pandangan {n} responden; kernel tidak pernah lebih sempit dari akurasi terukur ({px} px).',
  areas: 'Area minat',
  areaColumns: [
    'Area',
    'Melihat',
    'Waktu ke fiksasi pertama, d',
    'Durasi, d',
    'Porsi durasi',
    'Kunjungan ulang',
    'Fiksasi',
  ],
  tasks: 'Tugas',
  taskColumns: ['Tugas', 'Berhasil', 'Gagal', 'Waktu hingga berhasil (median), d', 'Klik hingga berhasil'],
  benchmarkTitle: 'Tolok ukur: {subtype}',
  benchmarkColumns: ['Metrik', 'Nilai', 'Persentil'],
  benchmarkBase: 'Basis: {researches} riset di instalasi ini dan {imported} norma impor.',
  questionnaire: 'Kuesioner',
  answered: '{n} menjawab',
  engineVersions: 'Mesin',
  step: 'Satu titik = {step} d',
  none: '—',
  fixationFilter: 'Fiksasi',
  fixationNoise: { median: 'median bergerak {n} sampel', average: 'rata-rata bergerak {n} sampel' },
  fixationSettings:
    'pengisian celah {gap} md, pengurangan derau {noise}, jendela kecepatan {window} md, ambang {threshold}°/dtk, gabung dalam {mergeGap} md dan {mergeAngle}°, buang di bawah {minDuration} md, derajat pada {distance} cm',
  fixationEarlier: 'filter sebelumnya (kecepatan dalam diagonal konten); bangun ulang untuk I-VT (Olsen 2012)',
};

const ko: FileTexts = {
  metrics: {
    engagement: '몰입도',
    valence: '정서가',
    attention: '주의',
    smile: '미소',
    neutral: '중립',
    happy: '기쁨',
    surprise: '놀람',
    sad: '슬픔',
    angry: '분노',
    disgust: '혐오',
    fear: '두려움',
  },
  types: { shift: '원시 값(시프트)', calibration_subtraction: '보정값 차감' },
  benchmark: {
    mean_engagement: '평균 몰입도',
    peak_engagement: '최고 몰입도',
    mean_valence: '평균 정서가',
    mean_attention: '평균 주의',
    score: '종합 점수',
  },
  title: '감정 및 주의 리포트',
  built: '{date} 생성',
  sample: '표본',
  included: '리포트에 포함된 응답자',
  excluded: '제외됨(품질 또는 리포트 필터)',
  men: '남성',
  women: '여성',
  sexUnknown: '성별 미기재',
  age: '연령: 중앙값 {median}, {min}–{max}',
  grades: '품질 등급 A / B / C',
  curves: '몰입도, 정서가, 주의',
  emotions: '표정',
  segments: '세그먼트별 몰입도',
  method: '이 수치를 만든 방법',
  bandNote: '응답자 평균과 95% 신뢰 구간(스튜던트 t-구간).',
  nArea: '아래 회색 영역: N, 각 지점에 해당하는 응답자 수(오른쪽 축). 5명 미만이면 구간이 흐리게 표시됩니다.',
  segmentN: '각 세그먼트의 N은 범례에 있습니다.',
  seconds: '{value}초',
  numberColumns: ['평균', '중앙값', '표준편차', '최솟값', '최댓값'],
  second: '초',
  respondentsAxis: 'N',
  moments: '주요 순간',
  peak: '최고점',
  drop: '하락',
  heatmap: '시선이 머문 곳',
  heatmapNote: '응답자 {n}명의 시선 밀도; 커널은 측정된 정확도({px}px)보다 좁지 않습니다.',
  areas: '관심 영역',
  areaColumns: ['영역', '본 비율', '첫 고정까지 시간(초)', '체류(초)', '체류 비율', '재방문', '고정 수'],
  tasks: '과제',
  taskColumns: ['과제', '성공', '실패', '성공까지 시간(중앙값, 초)', '성공까지 클릭'],
  benchmarkTitle: '벤치마크: {subtype}',
  benchmarkColumns: ['지표', '값', '백분위'],
  benchmarkBase: '기준: 이 설치의 리서치 {researches}건과 가져온 기준 {imported}건.',
  questionnaire: '설문',
  answered: '{n}명 응답',
  engineVersions: '엔진',
  step: '한 점 = {step}초',
  none: '—',
  fixationFilter: '응시',
  fixationNoise: { median: '{n}샘플 이동 중앙값', average: '{n}샘플 이동 평균' },
  fixationSettings:
    '결측 채우기 {gap} ms, 노이즈 감소 {noise}, 속도 창 {window} ms, 임계값 {threshold}°/초, {mergeGap} ms 및 {mergeAngle}° 이내 병합, {minDuration} ms 미만 버림, {distance} cm 기준 각도',
  fixationEarlier: '이전 필터(콘텐츠 대각선 단위 속도); I-VT(Olsen 2012)를 쓰려면 다시 생성하세요',
};

export const FILE_TEXTS: Record<Language, FileTexts> = { en, ru, id, ko };

/** A segment's name: the sex in words, else the answer's option or the research in the language (English, its key). */
export function segmentName(
  segment: { key: string; labels: Partial<Record<Language, string>> | null },
  language: Language,
): string {
  const t = FILE_TEXTS[language];
  if (segment.key === 'man') return t.men;
  if (segment.key === 'woman') return t.women;
  return segment.labels?.[language] || segment.labels?.en || segment.key;
}
