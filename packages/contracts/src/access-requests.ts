import { z } from 'zod';
import { msg } from './messages.ts';
import { PRICING } from './pricing.ts';

/**
 * Requests for access (issue 28, item 16): a visitor of the public pages who wants to become a customer leaves their
 * name, company, e-mail, the package they are interested in and a message; staff see the requests under Sessions
 * (the licences page), are notified of each new one, and turn one into a customer account, which marks it done.
 */
export const ACCESS_REQUEST_LIMITS = {
  name: 120,
  company: 200,
  email: 254,
  message: 2000,
} as const;

export const ACCESS_REQUEST_PACKAGES = PRICING.packages.map((p) => p.id) as [
  (typeof PRICING.packages)[number]['id'],
  ...(typeof PRICING.packages)[number]['id'][],
];

export const ACCESS_REQUEST_STATUSES = ['new', 'done'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

const required = msg('validation.required');
const text = (max: number) =>
  z.string({ error: required }).trim().min(1, required).max(max, msg('validation.maxChars', { max }));

/** POST /api/public/access-requests/ (no login) */
export const accessRequestInput = z.strictObject({
  name: text(ACCESS_REQUEST_LIMITS.name),
  company: text(ACCESS_REQUEST_LIMITS.company),
  email: z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(ACCESS_REQUEST_LIMITS.email, msg('validation.maxChars', { max: ACCESS_REQUEST_LIMITS.email }))
    .pipe(z.email(msg('validation.email'))),
  package: z.enum(ACCESS_REQUEST_PACKAGES, msg('validation.choice')),
  message: z
    .string()
    .trim()
    .max(ACCESS_REQUEST_LIMITS.message, msg('validation.maxChars', { max: ACCESS_REQUEST_LIMITS.message }))
    .default(''),
});
export type AccessRequestInput = z.input<typeof accessRequestInput>;

export const accessRequestSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  package: z.enum(ACCESS_REQUEST_PACKAGES),
  message: z.string(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  created_at: z.string(),
  handled_at: z.string().nullable(),
  /** The account made from the request. */
  account: z.object({ public_user_id: z.string(), username: z.string() }).nullable(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

/** GET /api/cabinet/access-requests/ (staff): new requests first, then the handled ones, newest first. */
export const accessRequestsOutput = z.object({ items: z.array(accessRequestSchema) });
export type AccessRequestsOutput = z.infer<typeof accessRequestsOutput>;

/** POST /api/cabinet/access-requests/{id}/account/ (staff) — the customer account made from a new request. */
export const convertAccessRequestOutput = z.object({
  request: accessRequestSchema,
  username: z.string(),
  /** Shown once to the staff member, who passes it on; only its hash is kept. */
  password: z.string(),
});
export type ConvertAccessRequestOutput = z.infer<typeof convertAccessRequestOutput>;
