import type { CreateProjectInput, CreateReportInput, createSurveyInput, LocalizedText, Sex } from '@emolens/contracts';
import type { z } from 'zod';
import type { Fixation } from './demo-gaze.ts';
import { type Crop, FACE_API_PHOTOS, SKIMAGE_PHOTOS } from './demo-media.ts';

/**
 * What the demo project holds (decision 017): its setup as an analyst would enter it, and the respondents who take
 * part. Their answers are made up; their faces and everything measured on them are real (the engine's output on
 * recordings made from photographs). Stored data like any analyst's, so in one language (English); the
 * questionnaires carry every respondent language, as a launch asks.
 */

/** The project: an old-flow project (12 s calibration: the shortest real journey) for the installation's own audience. */
export const DEMO_PROJECT: CreateProjectInput = {
  title: 'Demo: reactions to a short video',
  description:
    'Made by Emolens on its first start to show every report view: a few respondents watched a 12-second video; ' +
    'their webcam recordings were made from real face photos and analysed by the engine like any recording. ' +
    'It never counts in benchmarks.',
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
export const CONTENT_FILENAME = 'demo-video.webm';

/**
 * Where viewers look on each slide (seconds into the slide, fractions of the 16:9 frame): the cat's eyes and nose,
 * the coffee and the spoon, the rocket top to bottom and a tower. Each demo respondent's fixations are spread a
 * little around these (demo-gaze.ts).
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
  name: 'Demo report',
  segment: { by: 'answer', survey_id: surveyId, question: 'liked' },
});

/** One respondent: who they say they are, what their webcam saw, how they answered. */
export interface DemoPersona {
  /** The panel's id for them (the link's `participant_id`). */
  participant: string;
  photo: string;
  /** The webcam's view of the photo (4:3, the face with room around it). */
  crop: Crop;
  sex: Sex | null;
  age: number;
  liked: 'yes' | 'somewhat' | 'no';
  again: number;
  screen: { width: number; height: number; device_pixel_ratio: number };
}

const faceApi = (file: string) => `${FACE_API_PHOTOS}/${file}`;

/**
 * Seven respondents: one face each from face-api's group photos (the crops were checked with the engine: one face
 * in every frame but a few), and scikit-image's astronaut when that package is installed.
 */
export const DEMO_PERSONAS: readonly DemoPersona[] = [
  {
    participant: 'demo-101',
    photo: faceApi('sample1.jpg'),
    crop: { x: 1238, y: 102, width: 668, height: 501 },
    sex: 'woman',
    age: 29,
    liked: 'yes',
    again: 5,
    screen: { width: 1920, height: 1080, device_pixel_ratio: 1 },
  },
  {
    participant: 'demo-102',
    photo: faceApi('sample2.jpg'),
    crop: { x: 591, y: 104, width: 776, height: 582 },
    sex: 'woman',
    age: 22,
    liked: 'no',
    again: 1,
    screen: { width: 1440, height: 900, device_pixel_ratio: 2 },
  },
  {
    participant: 'demo-103',
    photo: faceApi('sample3.jpg'),
    crop: { x: 336, y: 226, width: 718, height: 538 },
    sex: 'woman',
    age: 34,
    liked: 'somewhat',
    again: 3,
    screen: { width: 1366, height: 768, device_pixel_ratio: 1 },
  },
  {
    participant: 'demo-104',
    photo: faceApi('sample4.jpg'),
    crop: { x: 1200, y: 40, width: 640, height: 480 },
    sex: 'woman',
    age: 26,
    liked: 'yes',
    again: 4,
    screen: { width: 1536, height: 864, device_pixel_ratio: 1.25 },
  },
  {
    participant: 'demo-105',
    photo: faceApi('sample5.jpg'),
    crop: { x: 56, y: 762, width: 808, height: 606 },
    sex: null,
    age: 47,
    liked: 'somewhat',
    again: 3,
    screen: { width: 1280, height: 800, device_pixel_ratio: 2 },
  },
  {
    participant: 'demo-106',
    photo: faceApi('sample2.jpg'),
    crop: { x: 1228, y: 60, width: 680, height: 510 },
    sex: 'woman',
    age: 19,
    liked: 'no',
    again: 2,
    screen: { width: 1920, height: 1200, device_pixel_ratio: 1 },
  },
  {
    participant: 'demo-107',
    photo: `${SKIMAGE_PHOTOS}/astronaut.png`,
    crop: { x: 48, y: 4, width: 352, height: 264 },
    sex: 'woman',
    age: 52,
    liked: 'yes',
    again: 4,
    screen: { width: 2560, height: 1440, device_pixel_ratio: 1 },
  },
];
