import type { CreateProjectInput, CreateReportInput, createSurveyInput, LocalizedText, Sex } from '@emolens/contracts';
import type { z } from 'zod';

/**
 * What the demo project holds (decisions 017, 034): its setup as an analyst would enter it, and the respondents who
 * take part — phantoms (packages/phantom) whose behaviour is scripted here, against the slideshow's timeline. Their
 * answers are made up and their faces are real photographs warped as the script says; everything measured on them is
 * the engine's output on their recordings. Stored data like any analyst's, so in one language (English); the
 * questionnaires carry every respondent language, as a launch asks.
 */

/** The project: an old-flow project (12 s calibration: the shortest real journey) for the installation's own audience. */
export const DEMO_PROJECT: CreateProjectInput = {
  title: 'Demo (synthetic respondents): reactions to a short video',
  description:
    'Made by Emolens on its first start to show every report view. Its respondents are synthetic: their webcam ' +
    'recordings were generated from real face photos, warped to follow a script (smiles at the cat, surprise at the ' +
    'rocket, blinks, glances, two who get bored, one who does not follow the calibration dot), and analysed by the ' +
    'engine like any recording. It never counts in benchmarks.',
  platform: 'own_audience',
  respondent_language: 'en',
  audience_type: 'simple',
  flow_type: 'old',
};

export const DEMO_RESEARCH = {
  title: 'Video: cat, coffee, rocket',
  description: 'A slideshow of three pictures, four seconds each.',
} as const;

/** Seconds each content picture is on screen. */
export const SLIDE_SECONDS = 4;
/** The slideshow's pictures in their order (demo-media.ts `contentPhotos`): what the respondents react to. */
export const SLIDES = ['cat', 'coffee', 'rocket'] as const;
export type Slide = (typeof SLIDES)[number];

/** A fixation on a slide of the content: when it starts (seconds into the slide) and where (fractions of the slide). */
export interface Fixation {
  at: number;
  x: number;
  y: number;
}
export const CONTENT_FILENAME = 'demo-video.webm';

/**
 * Where viewers look on each slide (seconds into the slide, fractions of the 16:9 frame): the cat's eyes and nose,
 * the coffee and the spoon, the rocket top to bottom and a tower. Each demo respondent's fixations are spread a
 * little around these (demo-phantoms.ts).
 */
export const DEMO_FIXATIONS: readonly (readonly Fixation[])[] = [
  [
    { at: 0.3, x: 0.5, y: 0.45 },
    { at: 0.8, x: 0.4, y: 0.38 },
    { at: 1.7, x: 0.67, y: 0.44 },
    { at: 2.6, x: 0.56, y: 0.8 },
    { at: 3.4, x: 0.42, y: 0.4 },
  ],
  [
    { at: 0.3, x: 0.48, y: 0.35 },
    { at: 1.4, x: 0.57, y: 0.7 },
    { at: 2.3, x: 0.3, y: 0.62 },
    { at: 3.1, x: 0.47, y: 0.3 },
  ],
  [
    { at: 0.3, x: 0.5, y: 0.35 },
    { at: 1.1, x: 0.5, y: 0.6 },
    { at: 2.0, x: 0.5, y: 0.9 },
    { at: 2.8, x: 0.17, y: 0.5 },
    { at: 3.4, x: 0.5, y: 0.4 },
  ],
];

const text = (en: string, ru: string, id: string, ko: string): LocalizedText => ({ en, ru, id, ko });

/** The screener: sex and age (the profile questions the report's filters read); nobody is screened out. */
export const DEMO_SCREENER: z.input<typeof createSurveyInput> = {
  type: 'screener',
  title: 'Demo screener: about you',
  enabled: true,
  questions: [
    {
      id: 'sex',
      type: 'single',
      required: true,
      profile: 'sex',
      text: text('Your sex', 'Ваш пол', 'Jenis kelamin Anda', '성별'),
      options: [
        { id: 'woman', sex: 'woman', text: text('Woman', 'Женщина', 'Perempuan', '여성') },
        { id: 'man', sex: 'man', text: text('Man', 'Мужчина', 'Laki-laki', '남성') },
        { id: 'skip', text: text('Prefer not to say', 'Не хочу отвечать', 'Memilih tidak menjawab', '응답하지 않음') },
      ],
    },
    {
      id: 'age',
      type: 'number',
      required: true,
      profile: 'age',
      min: 16,
      max: 99,
      text: text('Your age', 'Ваш возраст', 'Usia Anda', '나이'),
    },
  ],
};

/** The survey after the video: a single choice (the report's segments) and a scale. */
export const DEMO_SURVEY: z.input<typeof createSurveyInput> = {
  type: 'survey',
  title: 'Demo survey: the video',
  enabled: true,
  questions: [
    {
      id: 'liked',
      type: 'single',
      required: true,
      text: text(
        'Did you like the video?',
        'Вам понравилось видео?',
        'Apakah Anda menyukai video ini?',
        '영상이 마음에 드셨나요?',
      ),
      options: [
        { id: 'yes', text: text('Yes', 'Да', 'Ya', '네') },
        { id: 'somewhat', text: text('Somewhat', 'Отчасти', 'Lumayan', '조금') },
        { id: 'no', text: text('No', 'Нет', 'Tidak', '아니요') },
      ],
    },
    {
      id: 'again',
      type: 'scale',
      min: 1,
      max: 5,
      text: text(
        'Would you watch it again?',
        'Посмотрели бы вы его ещё раз?',
        'Apakah Anda akan menontonnya lagi?',
        '다시 보시겠어요?',
      ),
      min_label: text('Surely not', 'Точно нет', 'Pasti tidak', '전혀 아니요'),
      max_label: text('Surely yes', 'Точно да', 'Pasti ya', '꼭 볼 거예요'),
    },
  ],
};

/** The report the project opens with: every usable respondent, split by the survey's "liked" answer. */
export const demoReport = (surveyId: string): CreateReportInput => ({
  name: 'Synthetic demo report',
  segment: { by: 'answer', survey_id: surveyId, question: 'liked' },
});

/** A change of expression at a moment of the video: seconds into `slide` it starts, peaks, starts to fade, ends. */
export interface Reaction {
  kind: 'smile' | 'surprise' | 'frown';
  slide: Slide;
  intensity: number;
  onset: number;
  apex: number;
  offset: number;
  end: number;
}

/** Eyes (and head) off the screen for a while: at a phone below it, or out of a window beside it. */
export interface LookAway {
  slide: Slide;
  /** Seconds into the slide, and for how long (it may run into the next slides). */
  at: number;
  seconds: number;
  where: 'phone' | 'window';
}

/** How a respondent behaves while recorded: what the phantom is scripted to do (demo-phantoms.ts). */
export interface Behaviour {
  reactions: Reaction[];
  lookAways: LookAway[];
  blinksPerMinute: number;
  /** False: they look at their phone while the calibration dot moves, so the engine's calibration fails. */
  followsDot: boolean;
}

/** A smile: 0.6 s to its apex, held `hold` seconds, 0.8 s to fade. */
const smile = (slide: Slide, onset: number, intensity: number, hold = 1.6): Reaction => ({
  kind: 'smile',
  slide,
  intensity,
  onset,
  apex: onset + 0.6,
  offset: onset + 0.6 + hold,
  end: onset + 1.4 + hold,
});
/** Surprise: quick (0.25 s to its apex), held about a second, gone after two. */
const surprise = (slide: Slide, onset: number, intensity: number): Reaction => ({
  kind: 'surprise',
  slide,
  intensity,
  onset,
  apex: onset + 0.25,
  offset: onset + 1.3,
  end: onset + 2,
});
const frown = (slide: Slide, onset: number, intensity: number): Reaction => ({
  kind: 'frown',
  slide,
  intensity,
  onset,
  apex: onset + 0.7,
  offset: onset + 1.9,
  end: onset + 2.7,
});

/** One respondent: who they say they are, what their webcam saw, how they answered. */
export interface DemoPersona {
  /** The panel's id for them (the link's `participant_id`). */
  participant: string;
  /** Their face: a phantom face source (packages/phantom source.ts: `sample3-0` is photo 3's first face from the left). */
  source: string;
  sex: Sex | null;
  age: number;
  liked: 'yes' | 'somewhat' | 'no';
  again: number;
  screen: { width: number; height: number; device_pixel_ratio: number };
  /** The screen's diagonal (inches) and how far their eyes are from it (cm): how far the eyes turn to a point. */
  display: { inches: number; distanceCm: number };
  /** Their face in the webcam's 640 × 480 picture: its width (px) and centre (shares of the picture). */
  face: { widthPx: number; x: number; y: number };
  behaviour: Behaviour;
}

/**
 * Seven respondents, one face each from face-api's demo group photos and scikit-image's astronaut (when that package
 * is installed). Each face's size and place in the picture keep its neighbours in the photo out of it (the crops
 * decision 017 checked with the engine). Most smile at the cat and are surprised by the rocket, everyone looks at what the slides show (the
 * coffee cup among it) and blinks now and then; demo-102 and demo-106 get bored and look away during the coffee,
 * and demo-103 looks at their phone instead of following the calibration dot.
 */
export const DEMO_PERSONAS: readonly DemoPersona[] = [
  {
    participant: 'demo-101',
    source: 'sample1-2',
    sex: 'woman',
    age: 29,
    liked: 'yes',
    again: 5,
    screen: { width: 1920, height: 1080, device_pixel_ratio: 1 },
    display: { inches: 24, distanceCm: 65 },
    face: { widthPx: 168, x: 0.48, y: 0.47 },
    behaviour: {
      reactions: [smile('cat', 0.8, 1, 1.8), surprise('rocket', 0.3, 0.8)],
      lookAways: [],
      blinksPerMinute: 14,
      followsDot: true,
    },
  },
  {
    participant: 'demo-102',
    source: 'sample2-1',
    sex: 'woman',
    age: 22,
    liked: 'no',
    again: 1,
    screen: { width: 1440, height: 900, device_pixel_ratio: 2 },
    display: { inches: 13.3, distanceCm: 50 },
    face: { widthPx: 152, x: 0.5, y: 0.48 },
    behaviour: {
      reactions: [smile('cat', 1.3, 0.5, 1)],
      lookAways: [{ slide: 'coffee', at: 1, seconds: 4.5, where: 'phone' }],
      blinksPerMinute: 20,
      followsDot: true,
    },
  },
  {
    participant: 'demo-103',
    source: 'sample3-0',
    sex: 'woman',
    age: 34,
    liked: 'somewhat',
    again: 3,
    screen: { width: 1366, height: 768, device_pixel_ratio: 1 },
    display: { inches: 15.6, distanceCm: 55 },
    face: { widthPx: 177, x: 0.47, y: 0.48 },
    behaviour: {
      reactions: [smile('cat', 1, 0.8), surprise('rocket', 0.5, 0.6)],
      lookAways: [],
      blinksPerMinute: 12,
      followsDot: false,
    },
  },
  {
    participant: 'demo-104',
    source: 'sample4-3',
    sex: 'woman',
    age: 26,
    liked: 'yes',
    again: 4,
    screen: { width: 1536, height: 864, device_pixel_ratio: 1.25 },
    display: { inches: 15.6, distanceCm: 55 },
    face: { widthPx: 159, x: 0.21, y: 0.52 },
    behaviour: {
      reactions: [smile('cat', 0.6, 0.9, 2), surprise('rocket', 0.2, 1)],
      lookAways: [],
      blinksPerMinute: 16,
      followsDot: true,
    },
  },
  {
    participant: 'demo-105',
    source: 'sample5-0',
    sex: null,
    age: 47,
    liked: 'somewhat',
    again: 3,
    screen: { width: 1280, height: 800, device_pixel_ratio: 2 },
    display: { inches: 13.3, distanceCm: 50 },
    face: { widthPx: 168, x: 0.52, y: 0.46 },
    behaviour: {
      reactions: [smile('cat', 1.2, 0.7), frown('coffee', 1, 0.5), surprise('rocket', 0.6, 0.5)],
      lookAways: [],
      blinksPerMinute: 10,
      followsDot: true,
    },
  },
  {
    participant: 'demo-106',
    source: 'sample2-2',
    sex: 'woman',
    age: 19,
    liked: 'no',
    again: 2,
    screen: { width: 1920, height: 1200, device_pixel_ratio: 1 },
    display: { inches: 24, distanceCm: 65 },
    face: { widthPx: 164, x: 0.46, y: 0.48 },
    behaviour: {
      reactions: [smile('cat', 0.9, 0.6, 1.2), surprise('rocket', 1.5, 0.4)],
      lookAways: [{ slide: 'coffee', at: 2, seconds: 3, where: 'window' }],
      blinksPerMinute: 22,
      followsDot: true,
    },
  },
  {
    participant: 'demo-107',
    source: 'astronaut',
    sex: 'woman',
    age: 52,
    liked: 'yes',
    again: 4,
    screen: { width: 2560, height: 1440, device_pixel_ratio: 1 },
    display: { inches: 27, distanceCm: 70 },
    face: { widthPx: 220, x: 0.5, y: 0.48 },
    behaviour: {
      reactions: [smile('cat', 0.7, 0.9), surprise('rocket', 0.3, 0.9)],
      lookAways: [],
      blinksPerMinute: 12,
      followsDot: true,
    },
  },
];
