import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';
import { sessionApiToken, sessionIdFromApiToken } from './tokens.ts';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('pässword one');
    const b = await hashPassword('pässword one');
    expect(a).not.toBe(b);
    expect(await verifyPassword('pässword one', a)).toBe(true);
    expect(await verifyPassword('pässword two', a)).toBe(false);
  });

  it('treats Unicode forms of the same password alike', async () => {
    const hash = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });

  it('rejects malformed stored hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });
});

describe('session API token', () => {
  it('round-trips to its session and rejects tampering', () => {
    const token = sessionApiToken('s'.repeat(40), 'session-1');
    expect(sessionIdFromApiToken('s'.repeat(40), token)).toBe('session-1');
    expect(sessionIdFromApiToken('s'.repeat(40), token.replace('session-1', 'session-2'))).toBeUndefined();
    expect(sessionIdFromApiToken('t'.repeat(40), token)).toBeUndefined();
    expect(sessionIdFromApiToken('s'.repeat(40), 'garbage')).toBeUndefined();
  });
});
