import { createHmac } from 'node:crypto';
import { LANGUAGES, type Language } from '@emolens/contracts';
import { z } from 'zod';
import { safeEqual } from '../auth/tokens.ts';
import type { FlowChecks } from './oidc-client.ts';

/**
 * One sign-in's state, nonce and PKCE verifier between the redirect to the provider and its answer, with the page to
 * go on to: kept in the browser that started it (an httpOnly cookie on the callback's path), signed with the app
 * secret, so any API process can finish the flow and nobody can forge or alter it. Good for FLOW_TTL_MS, once.
 */
export const FLOW_COOKIE = 'emolens_sso';
export const FLOW_COOKIE_PATH = '/api/auth/sso/';
export const FLOW_TTL_MS = 10 * 60_000;

const flowSchema = z.strictObject({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43).max(128),
  next: z.string(),
  /** The login page's language: an account made on this sign-in gets it. */
  lang: z.enum(LANGUAGES).optional(),
  expiresAt: z.number().int(),
});
export type Flow = FlowChecks & { next: string; lang?: Language; expiresAt: number };

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`sso-flow:${payload}`).digest('base64url');

export function sealFlow(secret: string, flow: Flow): string {
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The flow a cookie carries, or undefined when it is missing, altered or expired. */
export function openFlow(secret: string, cookie: string | undefined, now = Date.now()): Flow | undefined {
  if (!cookie) return undefined;
  const dot = cookie.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = cookie.slice(0, dot);
  if (!safeEqual(sign(secret, payload), cookie.slice(dot + 1))) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const flow = flowSchema.safeParse(data);
  return flow.success && flow.data.expiresAt > now ? flow.data : undefined;
}
