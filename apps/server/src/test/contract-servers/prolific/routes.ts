import { newId, type ProlificContractState, type StudyRecord, type SubmissionRecord } from './state.ts';

/**
 * The resources of the Prolific contract server, answering as Prolific's API reference describes them (sources at
 * the top of integrations/prolific/client.ts). ASSUMPTION: Prolific does not list its numeric `error_code`s; the
 * ones here are placeholders in its shape, and Emolens reads the HTTP status.
 */
export interface Answer {
  status: number;
  body: unknown;
}

export const errorAnswer = (status: number, title: string, detail: unknown = title): Answer => ({
  status,
  body: {
    error: {
      status,
      error_code: status * 1000,
      title,
      detail,
      additional_information: '/api/v1/errors/',
      interactive: false,
    },
  },
});

const CODE_TYPES = [
  'COMPLETED',
  'FAILED_ATTENTION_CHECK',
  'FOLLOW_UP_STUDY',
  'GIVE_BONUS',
  'INCOMPATIBLE_DEVICE',
  'NO_CONSENT',
  'OTHER',
  'FIXED_SCREENOUT',
];
const CODE_ACTIONS = ['MANUALLY_REVIEW', 'AUTOMATICALLY_APPROVE', 'REQUEST_RETURN'];
const DEVICES = ['desktop', 'tablet', 'mobile'];
const PERIPHERALS = ['audio', 'camera', 'download', 'microphone'];
const CATEGORIES = [
  'TOO_QUICKLY',
  'TOO_SLOWLY',
  'FAILED_INSTRUCTIONS',
  'INCOMP_LONGITUDINAL',
  'FAILED_CHECK',
  'LOW_EFFORT',
  'MALINGERING',
  'NO_CODE',
  'BAD_CODE',
  'NO_DATA',
  'UNSUPP_DEVICE',
  'OTHER',
];

type Body = Record<string, unknown>;
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isWhole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min;

/** The study's fields wrong as Prolific would say: `{ field: [message] }`. */
function studyProblems(b: Body): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const need = (field: string, ok: boolean, message = 'This field is required.') => {
    if (!ok) problems[field] = [message];
  };
  need('name', isText(b.name));
  need('description', isText(b.description));
  let url: URL | null = null;
  try {
    url = isText(b.external_study_url) ? new URL(b.external_study_url) : null;
  } catch {
    url = null;
  }
  need('external_study_url', !!url && /^https?:$/.test(url.protocol), 'Enter a valid URL.');
  need('prolific_id_option', ['question', 'url_parameters', 'not_required'].includes(String(b.prolific_id_option)));
  need('total_available_places', isWhole(b.total_available_places, 1), 'A whole number of at least 1.');
  need('estimated_completion_time', isWhole(b.estimated_completion_time, 1), 'A whole number of at least 1.');
  need('reward', isWhole(b.reward, 1), 'A whole number of at least 1.');
  const codes = Array.isArray(b.completion_codes) ? (b.completion_codes as Body[]) : null;
  const codesOk =
    !!codes?.length &&
    codes.every(
      (c) =>
        isText(c.code) &&
        CODE_TYPES.includes(String(c.code_type)) &&
        Array.isArray(c.actions) &&
        (c.actions as Body[]).every(
          (a) => CODE_ACTIONS.includes(String(a.action)) && (a.action !== 'REQUEST_RETURN' || isText(a.return_reason)),
        ),
    ) &&
    new Set(codes.map((c) => c.code)).size === codes.length;
  need('completion_codes', codesOk, 'Each code needs a unique code, a code_type and valid actions.');
  const list = (v: unknown, allowed: string[]) =>
    v === undefined || (Array.isArray(v) && v.every((d) => allowed.includes(String(d))));
  need('device_compatibility', list(b.device_compatibility, DEVICES), 'Not a valid choice.');
  need('peripheral_requirements', list(b.peripheral_requirements, PERIPHERALS), 'Not a valid choice.');
  return problems;
}

const studyOut = (s: StudyRecord, state: ProlificContractState) => ({
  ...s,
  places_taken: state.submissionsOf(s.id).filter((x) => !['RETURNED', 'TIMED-OUT', 'REJECTED'].includes(x.status))
    .length,
});

const submissionOut = (s: SubmissionRecord) => ({
  id: s.id,
  participant_id: s.participant_id,
  status: s.status,
  study_code: s.study_code,
  started_at: s.started_at,
  completed_at: s.completed_at,
  return_requested: s.return_requested,
});

function transitionStudy(state: ProlificContractState, study: StudyRecord, action: unknown): Answer {
  const from = study.status;
  const refuse = () => errorAnswer(400, 'Invalid transition', `Cannot ${String(action)} a study in status ${from}.`);
  switch (action) {
    case 'PUBLISH':
      if (from !== 'UNPUBLISHED') return refuse();
      if (state.costOf(study) > state.balance) {
        return errorAnswer(400, 'Insufficient balance', 'Top up your workspace to publish this study.');
      }
      state.balance -= state.costOf(study);
      study.status = 'ACTIVE';
      break;
    case 'PAUSE':
      if (from !== 'ACTIVE') return refuse();
      study.status = 'PAUSED';
      break;
    case 'START':
      if (from !== 'PAUSED') return refuse();
      study.status = 'ACTIVE';
      break;
    case 'STOP':
      if (from !== 'ACTIVE' && from !== 'PAUSED') return refuse();
      study.status = state.submissionsOf(study.id).some((s) => s.status === 'AWAITING REVIEW')
        ? 'AWAITING REVIEW'
        : 'COMPLETED';
      break;
    default:
      return errorAnswer(400, 'Invalid request', { action: [`"${String(action)}" is not a valid choice.`] });
  }
  return { status: 200, body: studyOut(study, state) };
}

function transitionSubmission(submission: SubmissionRecord, b: Body): Answer {
  const target = b.action === 'APPROVE' ? 'APPROVED' : b.action === 'REJECT' ? 'REJECTED' : null;
  if (!target) return errorAnswer(400, 'Invalid request', { action: ['Not a valid choice.'] });
  if (b.action === 'REJECT') {
    const problems: Record<string, string[]> = {};
    if (typeof b.message !== 'string' || b.message.length < 100) {
      problems.message = ['Ensure this field has at least 100 characters.'];
    }
    if (!CATEGORIES.includes(String(b.rejection_category))) problems.rejection_category = ['Not a valid choice.'];
    if (Object.keys(problems).length) return errorAnswer(400, 'Invalid request', problems);
  }
  // Idempotent: the same transition again is ignored.
  if (submission.status === target) return { status: 200, body: submissionOut(submission) };
  if (submission.status !== 'AWAITING REVIEW') {
    return errorAnswer(400, 'Invalid transition', `Cannot move a submission from ${submission.status} to ${target}.`);
  }
  submission.status = target;
  if (target === 'REJECTED') {
    submission.rejection = { message: String(b.message), rejection_category: String(b.rejection_category) };
  }
  return { status: 200, body: submissionOut(submission) };
}

/** Routes of `/api/v1` (after the authentication): method, pattern and handler. */
export function route(state: ProlificContractState, method: string, path: string, body: unknown, base: string): Answer {
  const b = (body && typeof body === 'object' ? body : {}) as Body;
  if (method === 'GET' && path === '/users/me/')
    return { status: 200, body: { id: 'researcher0001', email: 'r@lab.test' } };
  if (method === 'POST' && path === '/studies/') {
    const problems = studyProblems(b);
    if (Object.keys(problems).length) return errorAnswer(400, 'Invalid request', problems);
    const study: StudyRecord = {
      id: newId(),
      name: String(b.name),
      internal_name: isText(b.internal_name) ? b.internal_name : String(b.name),
      description: String(b.description),
      status: 'UNPUBLISHED',
      external_study_url: String(b.external_study_url),
      prolific_id_option: String(b.prolific_id_option),
      total_available_places: b.total_available_places as number,
      reward: b.reward as number,
      estimated_completion_time: b.estimated_completion_time as number,
      completion_codes: b.completion_codes as StudyRecord['completion_codes'],
      device_compatibility: (b.device_compatibility as string[] | undefined) ?? DEVICES,
      peripheral_requirements: (b.peripheral_requirements as string[] | undefined) ?? [],
    };
    state.studies.set(study.id, study);
    return { status: 201, body: studyOut(study, state) };
  }
  const studyPath = /^\/studies\/([^/]+)\/(transition\/|submissions\/)?$/.exec(path);
  if (studyPath) {
    const m = studyPath;
    const study = state.studies.get(decodeURIComponent(m[1] ?? ''));
    if (!study) return errorAnswer(404, 'Not found', 'No study with this id.');
    if (method === 'GET' && !m[2]) return { status: 200, body: studyOut(study, state) };
    if (method === 'POST' && m[2] === 'transition/') return transitionStudy(state, study, b.action);
    if (method === 'GET' && m[2] === 'submissions/') return { status: 200, body: page(state, study.id, b, base) };
  }
  const m = /^\/submissions\/([^/]+)\/(transition|request-return)\/$/.exec(path);
  if (m && method === 'POST') {
    const submission = state.submissions.get(decodeURIComponent(m[1] ?? ''));
    if (!submission) return errorAnswer(404, 'Not found', 'No submission with this id.');
    if (m[2] === 'transition') return transitionSubmission(submission, b);
    const reasons = b.request_return_reasons;
    if (!Array.isArray(reasons) || !reasons.length || !reasons.every(isText)) {
      return errorAnswer(400, 'Invalid request', { request_return_reasons: ['This field is required.'] });
    }
    if (submission.status !== 'AWAITING REVIEW') {
      return errorAnswer(400, 'Invalid request', 'A return can only be requested for a submission awaiting review.');
    }
    submission.return_requested ??= new Date().toISOString();
    return {
      status: 200,
      body: {
        id: submission.id,
        status: submission.status,
        participant: submission.participant_id,
        return_requested: submission.return_requested,
      },
    };
  }
  return errorAnswer(404, 'Not found', `No resource ${method} ${path}.`);
}

/** One page of a study's submissions; `b.page` is the page asked for (from the query). */
function page(state: ProlificContractState, studyId: string, b: Body, base: string) {
  const all = state.submissionsOf(studyId);
  const n = Math.max(1, Number(b.page ?? 1) || 1);
  const results = all.slice((n - 1) * state.pageSize, n * state.pageSize).map(submissionOut);
  const more = n * state.pageSize < all.length;
  return {
    results,
    _links: {
      self: { href: `${base}/api/v1/studies/${studyId}/submissions/?page=${n}`, title: 'Current' },
      next: { href: more ? `${base}/api/v1/studies/${studyId}/submissions/?page=${n + 1}` : null, title: 'Next' },
    },
    meta: { count: all.length },
  };
}
