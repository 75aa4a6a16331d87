import { describe, expect, it } from 'vitest';
import { PRICING, withVat } from './pricing.ts';

describe('price list', () => {
  it('has the packages of the spec', () => {
    expect(PRICING.packages.map((p) => [p.id, p.sessions])).toEqual([
      ['basic', 3000],
      ['smart', 5000],
      ['pro', 10000],
      ['enterprise', 20000],
    ]);
    expect(PRICING.additionalPackage.sessions).toBe(100);
    expect(PRICING.vatRate).toBe(0.2);
  });

  it('adds 20% VAT and rounds to whole units', () => {
    expect(withVat(450_000)).toBe(540_000);
    expect(withVat(18_333)).toBe(22_000);
    expect(withVat(1)).toBe(1);
  });

  it('makes a larger package cheaper per session', () => {
    const perSession = PRICING.packages.map((p) => p.price / p.sessions);
    for (let i = 1; i < perSession.length; i++) expect(perSession[i]).toBeLessThan(perSession[i - 1] ?? 0);
    expect(PRICING.additionalPackage.price / PRICING.additionalPackage.sessions).toBeGreaterThan(perSession[0] ?? 0);
  });
});
