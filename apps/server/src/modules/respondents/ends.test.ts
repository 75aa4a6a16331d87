import { OUTCOMES, PLATFORMS, type Platform } from '@emolens/contracts';
import { describe, expect, it, vi } from 'vitest';
import { verifyCompletionCode } from './completion-code.ts';
import { cintRedirect, type EndInput, endOf, fill } from './ends.ts';

const SECRET = 'a-test-secret-of-enough-length-for-hs256';
const SHORT = 'K7M9XQ2RTWPH3A';
const CINT = {
  complete: 'https://s.cint.com/Survey/Complete?ProjectToken=abc&RID={RID}',
  quota_full: 'https://s.cint.com/Survey/QuotaFull?ProjectToken=abc',
  screen_out: '',
};
const REDIRECTS = {
  complete: 'https://panel.example.com/done?uid={participant_id}&s={status}',
  quota_full: '',
  screen_out: 'https://panel.example.com/out',
};

function input(
  platform: Platform,
  overrides: Partial<EndInput['session']> = {},
  outcome: EndInput['outcome'] = 'complete',
) {
  return {
    session: {
      id: '11111111-1111-4111-8111-111111111111',
      project_id: '22222222-2222-4222-8222-222222222222',
      platform,
      participant_id: 'p 1&x',
      panel: {},
      research_order: ['33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444'],
      ended_at: new Date('2026-11-23T12:00:00Z'),
      ...overrides,
    },
    outcome,
    shortCode: SHORT,
    researches: [
      {
        id: '33333333-3333-4333-8333-333333333333',
        settings: { cint_options: { complete: '', quota_full: '', screen_out: '' } },
      },
      { id: '44444444-4444-4444-8444-444444444444', settings: { cint_options: CINT } },
    ],
    redirectLinks: REDIRECTS,
  } satisfies EndInput;
}

describe('ends per platform', () => {
  it('Cint: the first research with a redirect for the outcome, the RID filled in or appended', async () => {
    const complete = await endOf(SECRET, input('cint', { panel: { RID: 'R 42' } }));
    expect(complete).toEqual({
      outcome: 'complete',
      code: null,
      token: expect.any(String),
      redirect_url: 'https://s.cint.com/Survey/Complete?ProjectToken=abc&RID=R%2042',
      mturk: null,
    });
    const full = await endOf(SECRET, input('cint', { panel: { RID: 'R42' } }, 'quota_full'));
    expect(full.redirect_url).toBe('https://s.cint.com/Survey/QuotaFull?ProjectToken=abc&RID=R42');
    // No redirect for the outcome on any research: the code.
    const out = await endOf(SECRET, input('cint', { panel: { RID: 'R42' } }, 'screen_out'));
    expect(out.redirect_url).toBeNull();
    expect(out.code).toBe('K7M9XQ2-RTWPH3A');
    expect(await verifyCompletionCode(SECRET, out.token as string)).toMatchObject({ valid: true });
  });

  it('Cint redirects: {rid} in any case, an existing query, a fragment', () => {
    expect(cintRedirect('https://x.test/a?rid={rid}', 'a/b')).toBe('https://x.test/a?rid=a%2Fb');
    expect(cintRedirect('https://x.test/a', 'r')).toBe('https://x.test/a?RID=r');
    expect(cintRedirect('https://x.test/a?', 'r')).toBe('https://x.test/a?RID=r');
    expect(cintRedirect('https://x.test/a?b=1#top', 'r')).toBe('https://x.test/a?b=1&RID=r#top');
  });

  it('MTurk: the form posted to the return address with the assignment', async () => {
    const end = await endOf(
      SECRET,
      input('amazon', {
        panel: { assignmentId: 'ASSIGN1', workerId: 'W1', turkSubmitTo: 'https://www.mturk.com/x?y=1' },
      }),
    );
    expect(end.mturk).toEqual({ action: 'https://www.mturk.com/mturk/externalSubmit', assignment_id: 'ASSIGN1' });
    expect(end.redirect_url).toBeNull();
    expect(end.code).toBe('K7M9XQ2-RTWPH3A');
    expect(await verifyCompletionCode(SECRET, end.token as string)).toMatchObject({ valid: true });
    // Without MTurk's parameters (a link opened outside MTurk): the code.
    const bare = await endOf(SECRET, input('amazon'));
    expect(bare.mturk).toBeNull();
    expect(bare.code).toBeTruthy();
  });

  it('Toloka and Yandex tasks: the code, whatever the scenario redirects', async () => {
    for (const platform of ['toloka', 'yandex_tasks'] as const) {
      const end = await endOf(SECRET, input(platform));
      expect(end.redirect_url, platform).toBeNull();
      expect(end.mturk, platform).toBeNull();
      expect(end.code, platform).toBe('K7M9XQ2-RTWPH3A');
      const verified = await verifyCompletionCode(SECRET, end.token as string);
      expect(verified, platform).toEqual({
        valid: true,
        claims: {
          sid: '11111111-1111-4111-8111-111111111111',
          pid: '22222222-2222-4222-8222-222222222222',
          cids: ['33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444'],
          par: 'p 1&x',
          outcome: 'complete',
        },
      });
    }
  });

  it('Prolific: its completion page with the code of the outcome, from the first research with a study', async () => {
    const codes = (prefix: string) =>
      Object.fromEntries(OUTCOMES.map((o) => [o, { code: `${prefix}-${o}`, action: 'MANUALLY_REVIEW' }]));
    const platformData = { '44444444-4444-4444-8444-444444444444': codes('SECOND') };
    for (const outcome of OUTCOMES) {
      const end = await endOf(SECRET, { ...input('prolific', {}, outcome), platformData });
      expect(end.redirect_url).toBe(`https://app.prolific.com/submissions/complete?cc=SECOND-${outcome}`);
      expect(end.code).toBeNull();
      expect(end.outcome).toBe(outcome);
    }
    const both = { ...platformData, '33333333-3333-4333-8333-333333333333': codes('FIRST') };
    const first = await endOf(SECRET, { ...input('prolific', {}, 'screen_out'), platformData: both });
    expect(first.redirect_url).toBe('https://app.prolific.com/submissions/complete?cc=FIRST-screen_out');
    // Without a study made by Emolens (the codes are Prolific's own): the scenario's redirect, as on other panels
    // (the next test).
  });

  it('every other platform: the scenario redirect with the participant and status, else the code', async () => {
    const others = PLATFORMS.filter((p) => !['cint', 'amazon', 'toloka', 'yandex_tasks'].includes(p));
    expect(others.length).toBeGreaterThanOrEqual(7);
    for (const platform of others) {
      const complete = await endOf(SECRET, input(platform));
      expect(complete.redirect_url, platform).toBe('https://panel.example.com/done?uid=p%201%26x&s=complete');
      expect(complete.code, platform).toBeNull();
      const full = await endOf(SECRET, input(platform, {}, 'quota_full'));
      expect(full.redirect_url, platform).toBeNull();
      expect(full.code, platform).toBeTruthy();
      const out = await endOf(SECRET, input(platform, { participant_id: null }, 'screen_out'));
      expect(out.redirect_url, platform).toBe('https://panel.example.com/out');
    }
  });

  it('fills {code} and {token} in a scenario redirect: the short code and the signed one', async () => {
    const end = await endOf(SECRET, {
      ...input('own_audience'),
      redirectLinks: { ...REDIRECTS, complete: 'https://panel.example.com/done?c={code}&t={token}' },
    });
    const url = new URL(end.redirect_url as string);
    expect(url.searchParams.get('c')).toBe('K7M9XQ2-RTWPH3A');
    expect(url.searchParams.get('t')).toBe(end.token);
    expect(await verifyCompletionCode(SECRET, end.token as string)).toMatchObject({ valid: true });
  });

  it('gives the same token for the same end every time, and a different one for another outcome', async () => {
    const tokens = new Set<string | null>();
    // The clock moves on by more than a second between the two (a token's times are in seconds), without waiting.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const outcome of OUTCOMES) {
        const a = await endOf(SECRET, input('toloka', {}, outcome));
        vi.setSystemTime(Date.now() + 1100);
        const b = await endOf(SECRET, input('toloka', {}, outcome));
        expect(a.token).toBe(b.token);
        expect(a.code).toBe(b.code);
        tokens.add(a.token);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(tokens.size).toBe(OUTCOMES.length);
  });

  it('fills only the named placeholders, URL-encoded', () => {
    expect(fill('https://x.test/{participant_id}/{other}?s={status}', { participant_id: 'a b', status: 'ok' })).toBe(
      'https://x.test/a%20b/{other}?s=ok',
    );
  });
});
