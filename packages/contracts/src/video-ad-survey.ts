import type { LocalizedText, SurveyBody } from './surveys.ts';

type Texts = [ru: string, en: string, id: string, ko: string];
const text = ([ru, en, id, ko]: Texts): LocalizedText => ({ ru, en, id, ko });
const blank = (): LocalizedText => ({ ru: '', en: '', id: '', ko: '' });
const option = (id: string, t: Texts | null, extra: { sex?: 'man' | 'woman' } = {}) => ({
  id,
  text: t ? text(t) : blank(),
  rule: 'pass' as const,
  share: null,
  sex: extra.sex ?? null,
});
/** What a new question has before its type fills it in: no options, rows, bounds, conditions or profile. */
export const newQuestionFields = () => ({
  random_order: false,
  other: false,
  options: [],
  rows: [],
  min: null,
  max: null,
  conditions: [],
  logic_operator: 'and' as const,
  profile: null,
});
const question = (
  q: Partial<SurveyBody['questions'][number]> & Pick<SurveyBody['questions'][number], 'id' | 'type'>,
) => ({
  text: blank(),
  required: true,
  ...newQuestionFields(),
  ...q,
});

/**
 * The standard video-ad survey of a self-service test (issue 15, item 1), asked after the video: recognition,
 * liking, brand recall, the feelings, purchase intent and what stayed in mind, then sex and age. The brand-recall
 * options are left for the customer to fill (their brand and two competitors): the survey is "fully filled" only once
 * every text in the respondents' language is there.
 */
export function videoAdSurveyTemplate(title: string): SurveyBody {
  return {
    type: 'survey',
    title,
    enabled: true,
    questions: [
      question({
        id: 'seen_before',
        type: 'single',
        text: text([
          'Вы видели эту рекламу раньше?',
          'Have you seen this ad before?',
          'Apakah Anda pernah melihat iklan ini sebelumnya?',
          '이 광고를 전에 본 적이 있습니까?',
        ]),
        options: [
          option('yes', ['Да', 'Yes', 'Ya', '예']),
          option('no', ['Нет', 'No', 'Tidak', '아니요']),
          option('unsure', ['Не уверен(а)', 'Not sure', 'Tidak yakin', '잘 모르겠습니다']),
        ],
      }),
      question({
        id: 'liking',
        type: 'scale',
        text: text([
          'Насколько вам понравилась реклама?',
          'How much did you like the ad?',
          'Seberapa besar Anda menyukai iklan ini?',
          '이 광고가 얼마나 마음에 드셨습니까?',
        ]),
        min: 1,
        max: 10,
        min_label: text(['Совсем не понравилась', 'Not at all', 'Sama sekali tidak', '전혀 아니다']),
        max_label: text(['Очень понравилась', 'Very much', 'Sangat suka', '매우 그렇다']),
      }),
      question({
        id: 'brand_recall',
        type: 'single',
        random_order: true,
        text: text([
          'Какой бренд рекламировался?',
          'Which brand was advertised?',
          'Merek apa yang diiklankan?',
          '어떤 브랜드의 광고였습니까?',
        ]),
        options: [
          option('brand', null),
          option('competitor_1', null),
          option('competitor_2', null),
          option('dont_remember', ['Не помню', "I don't remember", 'Saya tidak ingat', '기억나지 않습니다']),
        ],
      }),
      question({
        id: 'feelings',
        type: 'multiple',
        random_order: true,
        text: text([
          'Что вы чувствовали во время просмотра?',
          'What did you feel while watching?',
          'Apa yang Anda rasakan saat menonton?',
          '시청하는 동안 어떤 감정을 느끼셨습니까?',
        ]),
        options: [
          option('joy', ['Радость', 'Joy', 'Senang', '기쁨']),
          option('interest', ['Интерес', 'Interest', 'Tertarik', '흥미']),
          option('surprise', ['Удивление', 'Surprise', 'Terkejut', '놀라움']),
          option('boredom', ['Скуку', 'Boredom', 'Bosan', '지루함']),
          option('irritation', ['Раздражение', 'Irritation', 'Kesal', '짜증']),
          option('nothing', [
            'Ничего особенного',
            'Nothing in particular',
            'Tidak ada yang khusus',
            '특별한 감정 없음',
          ]),
        ],
      }),
      question({
        id: 'purchase_intent',
        type: 'scale',
        text: text([
          'Насколько вероятно, что вы купите товар этого бренда?',
          'How likely are you to buy this brand?',
          'Seberapa besar kemungkinan Anda membeli merek ini?',
          '이 브랜드의 제품을 구매할 가능성은 얼마나 됩니까?',
        ]),
        min: 1,
        max: 5,
        min_label: text(['Точно не куплю', 'Definitely not', 'Pasti tidak', '절대 사지 않음']),
        max_label: text(['Точно куплю', 'Definitely', 'Pasti', '반드시 구매']),
      }),
      question({
        id: 'remembered',
        type: 'text',
        required: false,
        text: text([
          'Что вам запомнилось больше всего?',
          'What did you remember most?',
          'Apa yang paling Anda ingat?',
          '가장 기억에 남는 것은 무엇입니까?',
        ]),
      }),
      question({
        id: 'sex',
        type: 'single',
        profile: 'sex',
        text: text(['Ваш пол', 'Your sex', 'Jenis kelamin Anda', '성별']),
        options: [
          option('man', ['Мужской', 'Male', 'Laki-laki', '남성'], { sex: 'man' }),
          option('woman', ['Женский', 'Female', 'Perempuan', '여성'], { sex: 'woman' }),
        ],
      }),
      question({
        id: 'age',
        type: 'number',
        profile: 'age',
        min: 14,
        max: 100,
        text: text(['Ваш возраст, полных лет', 'Your age, in years', 'Usia Anda (tahun)', '나이(만)']),
      }),
    ],
  };
}

/** The template's texts the customer must fill: the brand-recall options (the brand and two competitors). */
export const VIDEO_AD_BLANKS = ['brand', 'competitor_1', 'competitor_2'] as const;
