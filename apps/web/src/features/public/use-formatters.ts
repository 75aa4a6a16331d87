import { PRICING } from '@emolens/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export interface Formatters {
  /** Whole currency units, e.g. "450 000 ₽" in Russian. */
  money: (amount: number) => string;
  /** Up to two decimals, for prices per session. */
  unitMoney: (amount: number) => string;
  number: (value: number, options?: Intl.NumberFormatOptions) => string;
}

/** Number and money formats of the current interface language, in the currency of `PRICING`. */
export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const money = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: PRICING.currency,
      maximumFractionDigits: 0,
    });
    const unitMoney = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: PRICING.currency,
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    });
    return {
      money: (amount) => money.format(amount),
      unitMoney: (amount) => unitMoney.format(amount),
      number: (value, options) => new Intl.NumberFormat(language, options).format(value),
    };
  }, [language]);
}
