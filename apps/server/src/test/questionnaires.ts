import { questionnaireOption as option, everyLanguage as text } from './respondent.ts';

/**
 * The survey "After the video" with a question of every kind (the text question `why` shown only for brand b), as
 * the questionnaire tests use it: whether `why` is required, the age question's range, the matrix's rows and columns.
 */
export function afterTheVideoSurvey(parts: {
  whyRequired: boolean;
  age: { min: number; max: number; profile?: 'age' };
  grid: { rows: Record<string, string>; options: string[] };
}) {
  return {
    type: 'survey',
    title: 'After the video',
    questions: [
      { id: 'intro', type: 'info', text: text('A few questions') },
      { id: 'like', type: 'scale', text: text('Liked it?'), required: true, min: 1, max: 5 },
      { id: 'brand', type: 'single', text: text('Brand'), other: true, options: [option('a'), option('b')] },
      {
        id: 'why',
        type: 'text',
        text: text('Why b?'),
        ...(parts.whyRequired ? { required: true } : {}),
        conditions: [{ question: 'brand', operator: 'selected', value: 'b' }],
      },
      { id: 'uses', type: 'multiple', text: text('Uses'), options: [option('x'), option('y')] },
      { id: 'age', type: 'number', text: text('Age'), ...parts.age },
      {
        id: 'grid',
        type: 'matrix',
        text: text('Grid'),
        rows: Object.entries(parts.grid.rows).map(([id, row]) => ({ id, text: text(row) })),
        options: parts.grid.options.map((id) => option(id)),
      },
    ],
  };
}
