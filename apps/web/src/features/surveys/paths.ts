/** The cabinet address of a questionnaire's editor. */
export const surveyPath = (id: string) => `/cabinet/surveys/${encodeURIComponent(id)}`;

export const SURVEYS_PATH = '/cabinet/surveys';
