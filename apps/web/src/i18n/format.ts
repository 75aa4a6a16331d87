/** A size in bytes as people read it (B, KB, MB, GB; binary multiples), in the UI's language. */
export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: unit ? 1 : 0 }).format(value)} ${units[unit]}`;
}

/** The decimal separator of numbers in the UI's language: "," in Russian and Indonesian, "." in English and Korean. */
export function decimalSeparator(language: string): string {
  return new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

/** A number with exactly `digits` decimals, in the UI's language. */
export function formatFixed(value: number, digits: number, language: string): string {
  return value.toLocaleString(language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
