import { ERROR_MESSAGES, type ErrorCode } from './errors.ts';

/**
 * The message catalogue: every message the contracts and the server give a user, by key, with its
 * English text. `{name}` marks a parameter. The spec's messages are here word for word. The web app
 * holds the same keys in its `messages` locale namespace (en equal to this text, a test checks it),
 * so a message travels as `{ key, params }` and is shown in the interface language.
 * See docs/decisions/008-message-catalogue.md.
 */
const CATALOGUE = {
  // Field rules shared by every form
  'validation.required': "This is a required field. Don't leave it empty",
  'validation.invalid': 'Invalid value',
  'validation.choice': 'Choose one of the offered values',
  'validation.unknownField': 'Unknown field',
  'validation.maxChars': 'At most {max} characters',
  'validation.minChars': 'At least {min} characters',
  'validation.number': 'Enter a number',
  'validation.wholeNumber': 'Enter a whole number',
  'validation.wholeSeconds': 'Enter a whole number of seconds',
  'validation.nonNegative': 'Must be 0 or more',
  'validation.atLeast': 'At least {min}',
  'validation.atMost': 'At most {max}',
  'validation.between': 'must be between {first} and {second}',
  'validation.minItems': 'At least {min} items',
  'validation.maxItems': 'At most {max} items',
  'validation.url': 'Enter a link starting with http:// or https://',
  'validation.usernameChars': 'Letters, digits and @/./+/-/_ only',
  'validation.versionRequired': 'updated_at is required',
  'validation.invalidText': 'Contains characters that are not allowed',
  'validation.date': 'Enter a date as YYYY-MM-DD',
  'validation.email': 'Enter an e-mail address such as name@company.com',
  // Waits under a minute (429 answers), said in seconds
  'retry.requestsSeconds': 'Too many requests. Try again in {seconds} s.',
  'retry.loginSeconds': 'Too many login attempts. Try again in {seconds} s.',
  // Users
  'user.doesNotExist': "User doesn't exist",
  'user.usernameTaken': 'A user with that username already exists',
  // Projects
  'project.platformRequired': 'Select a platform, do not leave the field empty',
  'project.notFound': 'Project not found',
  'project.closed': 'A completed or archived project cannot be edited',
  'project.cannot.launch': 'The project cannot be launched in its current status',
  'project.cannot.complete': 'The project cannot be completed in its current status',
  'project.cannot.archive': 'The project cannot be archived in its current status',
  'project.deleteDraftOnly': 'Only a draft project can be deleted',
  // The demo project (decision 017)
  'project.demo': 'Demo',
  'project.demoHint':
    'Made by Emolens on its first start. Its respondents are synthetic: webcam recordings generated from real face photos, scripted to react to the video (smiles, surprise, glances, blinks, boredom), then analysed by the engine like any other. It never counts in benchmarks.',
  // Researches (campaigns)
  'campaign.notFound': 'Unable to get campaign data. Please, reload the page.',
  'campaign.titleInvalid': 'The title contains invalid characters',
  'campaign.shelfOnlyInWizard': 'Shelf researches are created only through the project wizard',
  'campaign.notInOwnProject': "A research cannot be created in another user's project",
  'campaign.frozen': 'The project is launched: its researches cannot be changed',
  'campaign.contentlessForbidden': 'Contentless researches are not available to ARMI users',
  'campaign.videoOnDeviceSingleFace':
    "The video can stay on the respondent's device only in a research that analyses one face",
  // Research content: gallery, shelves, website-prototype tasks
  'content.pictureTwice': 'This picture is already in the gallery',
  'content.zoneDescriptionsUnique': 'Zone descriptions must be unique',
  'content.zoneOutside': 'The zone must lie inside the image',
  'content.stepTwice': "This step is already in the task's list",
  'content.nodeIdMissing': 'Enter the node id of the prototype screen',
  'content.nodeIdInvalid': 'A node id looks like 12:345',
  'content.finalStepMissing': 'Mark the step that completes the task',
  'content.anyClickHasNoSteps': 'In any-click mode the task has no steps',
  'content.screenshotRequired': 'Upload a screenshot for the task',
  'content.finalPointRequired': 'Set the final point on the screenshot',
  'content.imageRequired': 'Choose an image',
  'content.imageUnknown': 'The image is not a picture uploaded to this research',
  'content.figmaUrl': 'Enter a link to a Figma prototype (https://www.figma.com/proto/…)',
  'content.maxPictures': 'At most {max} pictures',
  'content.maxShelves': 'At most {max} shelves',
  'content.maxZones': 'At most {max} zones',
  'content.maxTasks': 'At most {max} tasks',
  'content.maxSteps': 'At most {max} steps',
  'content.maxPoints': 'At most {max} points',
  // Uploaded files
  'media.invalidFormat': 'Invalid file format',
  'media.tooLarge': 'File is too large',
  'media.notFound': 'File not found',
  'media.posterNotReady': 'The poster is not ready',
  'media.notReady': 'The file is not ready',
  'media.inUse': 'The file is used by "{name}": choose another image there first',
  'media.invalidMetadata': 'The file name or another upload field has characters that cannot be used',
  'media.nameTooLong': 'The file name is too long: at most {max} characters',
  'media.metadataRequired': 'The upload needs a file name and a research',
  'media.lengthRequired': 'The upload needs its size',
  // The storage (local directory or S3) does not answer (decision 023)
  'storage.unavailable': 'The file storage cannot be reached now: try again in a minute',
  // The database does not answer (restarting, down): the request can be tried again (decision 025)
  'database.unavailable': 'The database cannot be reached now: try again in a minute',
  'media.processingFailed': 'The video could not be processed. Delete it and upload it again.',
  'media.uploadIdInvalid': 'The upload id is not valid',
  // Launching a project: what is missing (spec section 8, 'not enough data to launch')
  'launch.scenarioMissing': 'Add at least one scenario',
  'launch.scenarioEmpty': 'Scenario {number} has no research',
  'launch.videoMissing': '{title}: Upload a video and wait until it is ready',
  'launch.picturesMissing': '{title}: Add at least one picture to the gallery',
  'launch.shelfMissing': '{title}: Add at least one shelf with an image',
  'launch.siteMissing': '{title}: Add at least one task with a screenshot',
  'launch.quotaLinkMissing': 'Create a quota link',
  'launch.surveyTranslationMissing':
    "Questionnaire «{title}» has texts missing in the respondents' language ({language})",
  // Scenarios and quota links
  'scenario.notFound': 'Scenario not found',
  'scenario.frozen': 'The project is launched: its scenarios cannot be changed',
  'scenario.campaignsOfProject': 'Choose researches of this project, each once',
  'scenario.orderComplete': 'List every scenario of the project exactly once',
  'scenario.linkNotFound': 'Quota link not found',
  'scenario.linksClosed': 'Quota links of a completed or archived project cannot be changed',
  // Respondent flow (the public API under /r/)
  // Questionnaires (screeners and surveys)
  'survey.notFound': 'Questionnaire not found',
  'survey.duplicateId': 'This id is already used in the questionnaire',
  'survey.optionsTooFew': 'Add at least two options',
  'survey.rowsTooFew': 'Add at least one row',
  'survey.scaleRange': 'A scale runs in whole steps from a smaller to a larger number, at most {max} steps',
  'survey.numberRange': 'The largest number must not be smaller than the smallest',
  'survey.logicEarlier': 'Display logic can only refer to an earlier question',
  'survey.rulesScreenerOnly': 'Pass, dropout and quota rules belong to screener questions',
  'survey.shareRequired': 'Enter the quota share, %',
  'survey.quotaSum': 'Screener quota shares must add up to at least 100% (now {sum}%)',
  'survey.unknownQuestion': 'There is no such question in this questionnaire',
  'survey.hiddenQuestion': 'This question is not shown for the answers given',
  'survey.otherText': 'Say what the other option is',
  'survey.linkedScreenerMany': 'Screening questionnaire is linked to multiple campaigns',
  'survey.linkedSurveyMany': 'Post-questionnaire is linked to multiple campaigns',
  'survey.frozen': 'The questionnaire belongs to a launched project: make a copy to change it',
  'survey.inUse': 'The questionnaire is used in a scenario: remove it there first, or make a copy',
  'survey.screenerSlot': 'Choose a screening questionnaire',
  'survey.surveySlot': 'Choose a post-questionnaire',
  'survey.answersSent': 'These answers have already been sent',
  'survey.profileSex':
    "The respondent's sex is given by a single-choice question whose options say which sex they mean",
  'survey.profileAge': "The respondent's age is given by a number question (years)",
  'survey.profileTwice': "Only one question of a questionnaire gives the respondent's sex, and one the age",
  'filter.ageRange': 'The lower age must not be above the upper one',
  'respondent.linkNotFound': 'This link is not valid. Check the address or ask for a new link.',
  'respondent.sessionNotFound': 'Your session was not found. Open the link again.',
  'respondent.collectionFinished': 'Collection finished',
  'respondent.collectionSuspended': 'Collection suspended',
  'respondent.consentOutdated': 'The agreement has changed. Reload the page and read it again.',
  'respondent.panelConsentRequired': 'Confirm the consent to continue',
  'respondent.alreadyCompleted': 'You have already taken part in this research',
  'respondent.sessionEnded': 'This session has ended',
  'respondent.previewNotSaved': 'Preview: results are not saved',
  'respondent.segmentUnknown': 'This recording segment was not started',
  'respondent.chunkOutOfOrder': 'A part of the recording arrived before the one preceding it',
  'respondent.chunkConflict': 'A different part of the recording is already stored under this number',
  'respondent.chunkTooLarge': 'A part of the recording is too large',
  'respondent.chunkNotVideo': 'The recording is not a video',
  'respondent.chunkChecksum': 'A part of the recording was damaged on the way. It will be sent again.',
  'respondent.eventsNotMonotonic': 'Event times must not go backwards',
  'respondent.eventsInFuture': 'Event times lie outside the session',
  'respondent.eventBatchConflict': 'A different event batch is already stored under this number',
  'respondent.eventBatchGap': 'An event batch arrived before the one preceding it',
  'respondent.recordingIncomplete': 'Part of the recording has not arrived yet',
  'respondent.contentNotShown': 'The content has not been shown yet',
  'respondent.screenerNotAnswered': 'The screening questions have not been answered yet',
  'respondent.surveyNotAnswered': 'The questionnaire has not been answered yet',
  'respondent.turkSubmitInvalid': 'The MTurk return address is not an MTurk address',
  // The stand-alone setup check (/dot-test, public API under /r/dot-tests)
  'respondent.dotTestNotFound': 'This check was not found: it was deleted or never existed. Start a new one.',
  'respondent.dotTestSent': 'The recording of this check has already been sent',
  'respondent.dotTestCalibrationIncomplete': 'The calibration did not finish. Start the check again.',
  // The calibration check before the content (decision 050)
  'respondent.calibrationCheckNotFound': 'This calibration check was not asked for',
  'respondent.calibrationIncomplete': 'The calibration and its validation have not all arrived',
  'respondent.calibrationCheckOff': "This session's researches do not check the calibration",
  // Privacy mode: the analysis on the respondent's device (decision 064)
  'respondent.deviceAnalysisOff': "This session's video is not analysed on the device",
  'respondent.deviceAlreadyChecked': "The device's speed can no longer be measured: the recording has started",
  'respondent.deviceNotTooSlow': 'This device analyses fast enough: the video stays on it',
  'respondent.uploadNotOffered': 'This research does not offer to upload the video instead',
  'respondent.analysisSiteUndecided': "The device's speed has not been measured yet",
  'respondent.chunkNotReadings': 'The upload is not readings of the face analysis',
  'respondent.readingsNotExpected': 'This session uploads video, not readings',
  'respondent.videoNotExpected': "This session's video stays on the device: only readings are uploaded",
  // Fieldwork (the cabinet's view of respondent sessions)
  'fieldwork.sessionNotFound': 'Respondent session not found',
  'fieldwork.recordingNotFound': 'This recording has no stored video',
  'fieldwork.phantomTruthPreview':
    'A preview session is neither saved nor processed: take the phantom through the quota link',
  // Processing (video processes and their results)
  'processing.processNotFound': 'Video process not found',
  'processing.notRestartable': 'This video is being processed now: cancel it first or wait until it ends',
  'processing.notCancelable': 'This video has already been processed',
  'processing.nothingToReprocess': 'This research has no processed videos yet',
  'processing.error.recording_missing': 'The recording is missing from storage',
  'processing.error.file_not_found': 'The recording file was not found',
  'processing.error.empty_file': 'The recording is empty',
  'processing.error.not_a_video': 'The recording is not a video (no video stream)',
  'processing.error.no_frames': 'No frames could be read from the recording',
  'processing.error.decode_failed': 'The recording is damaged and could not be decoded',
  'processing.error.ffmpeg_missing': 'The video decoder is not installed on the server',
  'processing.error.invalid_options': 'The processing settings are invalid',
  'processing.error.invalid_event_log': "The respondent's event log could not be read",
  'processing.error.event_log_inconsistent': 'The event log does not match the recording',
  'processing.error.recording_too_long': 'The recording is far longer than the content',
  'processing.error.invalid_readings': "The face readings uploaded by the respondent's device could not be read",
  'processing.error.engine_crashed': 'The analysis stopped unexpectedly; restart the video',
  'processing.error.internal': 'Something went wrong...',
  'processing.excluded.no_face': 'No face was found in the recording',
  'processing.excluded.bad_frames': 'Too many bad frames',
  'processing.excluded.calibration_failed': 'Gaze calibration failed',
  'processing.excluded.several_faces': 'Several faces in the frame',
  // Deleting respondent data (consent withdrawn)
  'deletion.sessionIdInvalid': 'A session id looks like 3f2b6c1e-8a4d-4e7f-9b2a-1c5d6e7f8a9b',
  'deletion.codeInvalid': 'This is not a valid completion code',
  'deletion.nothingFound': 'No respondent sessions of this project match this identifier',
  // Demo mode and interview analysis
  'demo.notFound': 'Analysis not found',
  'demo.notReady': 'The analysis is not finished yet',
  'demo.tooLong': 'The video is too long: at most {max} minutes',
  // Sessions
  'session.estimateNotFound': 'Unable to calculate the number of sessions: a scenario or quota link was not found',
  // Reports (spec section 8)
  'report.nameLength': 'The report name is at most 30 characters',
  'report.nameLetters': 'Only letters, digits and spaces are allowed in a report name',
  'report.notFound': 'Report not found',
  'report.unmarkedTasks': 'Unable to generate report due to unmarked tasks',
  'report.incorrectTiming': 'Incorrect timing',
  'report.noResponses': 'There are no responses for these parameters',
  'report.noProcesses': 'There are no video processes for these filters',
  'report.alreadyGenerating': 'A report is already being generated',
  'report.lastFailed': 'The last report failed',
  'report.notDone': 'The report is not built yet',
  'report.processIdsInvalid': 'List video process ids separated by commas',
  'report.dateInvalid': 'A date looks like 2026-11-24',
  // Categories directory and benchmarks (issue 13, item 7; spec sections 3, 5, 6, 8)
  'report.noSubtype': 'The research has no subtype: choose one in its categories to compare it with benchmarks',
  'category.notFound': 'Category not found',
  'category.exists': 'This value is already in the directory',
  'category.unknown': 'Choose a value from the categories directory',
  'category.subtypeContentType': 'Benchmark subtype must have the same content type as the research',
  'category.contentTypeRequired': 'A subtype needs a content type',
  'category.forbidden': 'Only categorizer admins and super users maintain the categories directory and norm bases',
  'category.inUse': 'Researches use this value: rename it, or change their categories first',
  'report.benchmarkShift': 'Benchmarks compare shift (raw) reports only',
  'report.areaWindow': 'The window must end after it starts',
  'report.areaPolygonPoints': 'A polygon has {min} to {max} points',
  'report.areaPolygonCrossing': 'The polygon must not cross itself',
  'report.areaKeyFrameOrder': 'Key frames go in time order, one per moment',
  'report.areaKeyFrameShape': 'Every key frame must have the same shape, with as many points',
  // A report over several researches of a project (issue 13, item 1)
  'report.segmentResearch': 'Comparing researches needs at least one other research in the report',
  'report.researchMismatch': 'Only researches of the same project with the same content type can be combined',
  'report.researchItems': 'The researches show a different number of items: {first} and {second}',
  // A report's files: its presentation and video export (issue 13, item 8)
  'report.fileInProgress': 'The file is being made: wait until it is ready',
  'report.videoOnly': 'A video export needs a research whose content is a video',
  'report.noVideo': "The research's video is not available: upload it again",
  'report.noFile': 'There is no such file yet',
  'report.fileFailed': 'The file could not be made: try again',
  'report.uploadFailed': 'Presentation upload error',
  // Personal API tokens (issue 14)
  'token.notFound': 'API token not found',
  'token.expiryPast': 'The expiry date must be after today',
  'token.limit': 'At most {max} active API tokens: revoke one first',
  'token.invalid': 'The API token is missing, expired or revoked',
  'token.scope': 'This API token does not open this API',
  // A research's Toloka pool (issue 14, item 4)
  'pool.notEnoughFunds': 'Not enough funds',
  'pool.startError': 'Toloka start error',
  'pool.notEnoughData': 'Not enough data to launch',
  'pool.notLaunched': 'Launch the project first: the pool sends respondents to its quota link',
  'pool.wrongPlatform':
    'The project recruits on another platform: Toloka pools are for Toloka and Yandex tasks projects',
  'pool.noQuotaLink': 'The research has no quota link: make one in a scenario that shows it',
  'pool.exists': 'The research already has a Toloka pool',
  'pool.notFound': 'The research has no Toloka pool yet',
  'pool.unavailable': 'Toloka cannot be reached now: try again later',
  // A research's MTurk HIT (issue 14, item 6)
  'hit.cents': 'Whole cents only, such as 0.50',
  'hit.wrongPlatform': 'The project recruits on another platform: MTurk HITs are for Amazon projects',
  'hit.notLaunched': 'Launch the project first: the HIT sends workers to its quota link',
  'hit.httpsRequired': "MTurk shows only HTTPS pages: set PUBLIC_URL to this installation's HTTPS address",
  'hit.exists': 'The research already has an MTurk HIT',
  'hit.notFound': 'The research has no MTurk HIT yet',
  'hit.startError': 'MTurk did not create the HIT',
  'hit.expireError': 'MTurk did not stop the HIT',
  'hit.unavailable': 'Amazon Mechanical Turk cannot be reached now: try again later',
  // Licences and sessions (issue 15, item 3)
  'licence.forbidden': 'Only staff manage licence packages',
  'licence.exhausted': 'The account has no sessions left: collection is suspended until a package is added',
  // Requests for access (issue 28, item 16)
  'accessrequest.forbidden': 'Only staff handle requests for access',
  'accessrequest.notFound': 'The request for access does not exist',
  'accessrequest.handled': 'The request has been handled already',
  // Self-service tests (issue 15, items 1 and 2)
  'selfservice.minRespondents': 'At least 100 respondents',
  'selfservice.commentRequired': 'Say what to change: the comment goes to the customer',
  'selfservice.notFound': 'The test does not exist or is not yours',
  'selfservice.notEditable': 'The test has been sent to moderation and can no longer be edited',
  'selfservice.videoMissing': 'Upload the video ad',
  'selfservice.videoNotReady': 'The video is still being checked: its length is not known yet',
  'selfservice.subtypeMissing': 'Choose the category and the subtype (the benchmark compares with it)',
  'selfservice.surveyIncomplete': "Fill in and save the survey: every question and answer in the respondents' language",
  'selfservice.balanceLow': 'Not enough sessions: the test needs {needed}, the balance has {balance}',
  'selfservice.balanceShort': "The balance does not cover the test's sessions: ask for a licence package",
  'selfservice.videoFailed': 'The video could not be read: upload another file (mp4 or webm)',
  'selfservice.roleForbidden': 'Your role does not run self-service video-ad tests',
  'campaign.contentTypeForRole': 'Your role does not create researches of this type',
  'selfservice.forbidden': 'Only staff moderate self-service tests',
  'selfservice.cannot.submit': 'Only a draft can be sent to moderation',
  'selfservice.cannot.moderate': 'The test is not waiting for moderation',
  'selfservice.cannot.start': 'Only a test that passed moderation can be started, once',
  'selfservice.cannot.complete': 'Only a test whose report is ready can be completed',
  'selfservice.cannot.archive': 'Only a completed test can be archived',
  'selfservice.cannot.delete': 'Only a draft can be deleted',
  // Toloka and Amazon tokens (issue 14, item 3; spec sections 5, 6, 8)
  'oauth.descriptionRequired': 'token must have description',
  'oauth.amazonFieldsRequired': 'Amazon needs all fields',
  'oauth.accessKeyFormat': 'An access key ID is 16 to 128 capital letters and digits, such as AKIAIOSFODNN7EXAMPLE',
  'oauth.notFound': 'no token found',
  'oauth.bindFirst': 'first bind the token',
  'oauth.tolokaRejected': 'Toloka did not accept this token: check it, and whether it is a sandbox or a production one',
  'oauth.mturkRejected': 'Amazon Mechanical Turk did not accept these keys: check the access key ID and the secret',
  'oauth.serviceUnreachable': '{service} could not be reached to check the token. Try again later.',
  'oauth.duplicate': 'This token is linked already',
  'oauth.limit': 'At most {max} tokens of one service: delete one first',
  'oauth.ownerOnly': "Only the token's owner can do this",
  'oauth.shareSelf': 'The token is yours: enter the ID of another user',
  'oauth.shareNotFound': 'The token is not shared with this user',
  'oauth.revokeActive': 'An active token of another user cannot be revoked',
  'oauth.deleteShared': 'A token cannot be deleted while shared: revoke its shares first',
  'oauth.unreadable': "The token cannot be read with the server's current key: link it again",
  'benchmark.badFile': 'This is not an Emolens norm base file (format emolens-norms, version 1)',
  'benchmark.importNotFound': 'Norm base not found',
} as const;

/** The message of each error code (errors.ts) is in the catalogue as `errors.<code>`. */
type ErrorEntries = { readonly [C in ErrorCode as `errors.${C}`]: (typeof ERROR_MESSAGES)[C] };
const errorEntries = Object.fromEntries(
  Object.entries(ERROR_MESSAGES).map(([code, text]) => [`errors.${code}`, text]),
) as ErrorEntries;

export const MESSAGES: typeof CATALOGUE & ErrorEntries = { ...CATALOGUE, ...errorEntries };
export type MessageKey = keyof typeof MESSAGES;

/** The parameter names of a template: 'between {first} and {second}' → 'first' | 'second'. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
export type MessageParamValue = string | number;
export type MessageParams<K extends MessageKey> = Record<Placeholders<(typeof MESSAGES)[K]>, MessageParamValue>;
/** The parameters argument of a key: none for a plain message, required for a template. */
type ParamsArg<K extends MessageKey> = [Placeholders<(typeof MESSAGES)[K]>] extends [never] ? [] : [MessageParams<K>];

/** A message as data: what the API answers and the web app translates. */
export interface MessageRef {
  key: MessageKey;
  params?: Record<string, MessageParamValue>;
}

/**
 * A message reference written into a string, for the places that take a string: zod's custom
 * messages. Only `msg()` makes one and only `parseMessage()` reads one.
 */
export type Message = string & { readonly __message: true };

const PREFIX = '$msg:';

export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.hasOwn(MESSAGES, key);
}

/** A typed reference to a catalogue message: `ref('validation.between', { first: 0, second: 100 })`. */
export function ref<K extends MessageKey>(key: K, ...params: ParamsArg<K>): MessageRef {
  return params[0] ? { key, params: params[0] } : { key };
}

/** The same reference as a string, for zod: `z.string().max(255, msg('validation.maxChars', { max: 255 }))`. */
export function msg<K extends MessageKey>(key: K, ...params: ParamsArg<K>): Message {
  return `${PREFIX}${key}${params[0] ? JSON.stringify(params[0]) : ''}` as Message;
}

/** "must be between {first} and {second}" for a range's limits. */
export const msgBetween = (limits: { min: number; max: number }): Message =>
  msg('validation.between', { first: limits.min, second: limits.max });

function isParams(value: unknown): value is Record<string, MessageParamValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}

/** The reference `msg()` wrote into `text`; undefined for any other text. */
export function parseMessage(text: string): MessageRef | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  const body = text.slice(PREFIX.length);
  const brace = body.indexOf('{');
  const key = brace < 0 ? body : body.slice(0, brace);
  if (!isMessageKey(key)) return undefined;
  if (brace < 0) return { key };
  let params: unknown;
  try {
    params = JSON.parse(body.slice(brace));
  } catch {
    return undefined;
  }
  return isParams(params) ? { key, params } : undefined;
}

/** A reference from what an API answer carries, when it names a message of this catalogue. */
export function toMessageRef(value: unknown): MessageRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (!isMessageKey(key)) return undefined;
  if (params === undefined) return { key };
  return isParams(params) ? { key, params } : undefined;
}

/** Fills a template's `{name}` parameters; numbers are written the way `locale` writes them. */
export function formatMessage(
  template: string,
  params: Record<string, MessageParamValue> | undefined,
  locale = 'en',
): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(locale, { useGrouping: 'min2' }).format(value) : value;
  });
}

/** The English text of a message: what the API answers beside the key. */
export function englishMessage(message: MessageRef): string {
  return formatMessage(MESSAGES[message.key], message.params);
}

/** The message of an error code; 429s say in how many minutes to try again. */
export function codeMessage(code: ErrorCode, retryAfterSeconds?: number): MessageRef {
  if (retryAfterSeconds !== undefined && retryAfterSeconds < 60) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    if (code === 'too_many_requests') return ref('retry.requestsSeconds', { seconds });
    if (code === 'too_many_login_attempts') return ref('retry.loginSeconds', { seconds });
  }
  const key = `errors.${code}` as const;
  const template: string = MESSAGES[key];
  return template.includes('{minutes}')
    ? { key, params: { minutes: Math.max(1, Math.ceil((retryAfterSeconds ?? 60) / 60)) } }
    : { key };
}

/** What a zod issue carries (also as fastify-type-provider-zod passes it on: code and params). */
export interface IssueLike {
  code?: string;
  message?: string;
  origin?: string;
  expected?: string;
  format?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
}

/**
 * The message of a zod issue: the reference its schema gave, or, for a rule written without one
 * (`.max(64)`), the catalogue's message for the rule itself, so that every issue has a key.
 */
export function issueMessage(issue: IssueLike): MessageRef {
  const given = issue.message ? parseMessage(issue.message) : undefined;
  if (given) return given;
  const max = Number(issue.maximum);
  const min = Number(issue.minimum);
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return ref('validation.maxChars', { max });
      if (issue.origin === 'array' || issue.origin === 'set') return ref('validation.maxItems', { max });
      if (issue.origin === 'number' || issue.origin === 'bigint') return ref('validation.atMost', { max });
      break;
    case 'too_small':
      if (min === 1 && (issue.origin === 'string' || issue.origin === 'array')) return ref('validation.required');
      if (issue.origin === 'string') return ref('validation.minChars', { min });
      if (issue.origin === 'array' || issue.origin === 'set') return ref('validation.minItems', { min });
      if (issue.origin === 'number' || issue.origin === 'bigint') return ref('validation.atLeast', { min });
      break;
    case 'invalid_type':
      if (issue.expected === 'int') return ref('validation.wholeNumber');
      if (issue.expected === 'number') return ref('validation.number');
      break;
    case 'invalid_format':
      if (issue.format === 'url') return ref('validation.url');
      break;
    case 'invalid_value':
      return ref('validation.choice');
    case 'unrecognized_keys':
      return ref('validation.unknownField');
  }
  return ref('validation.invalid');
}
