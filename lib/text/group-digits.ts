/**
 * Whole numbers as the UI writes them: en-US digit grouping ("12,345"), exactly what
 * `Intl.NumberFormat("en-US")` gives for a safe integer, on the server and in every browser.
 *
 * Why not Intl: the first Intl number format a page makes loads ICU data, ~40 ms on the bench
 * machine, inside whatever task first formats a number, which for the session page was its
 * hydration (docs/benchmarks.md: no main-thread task over 200 ms). Anything that is not a safe integer (fractions,
 * NaN, ±Infinity) still goes through one lazily made formatter, so it reads the same as before.
 */
let intl: Intl.NumberFormat | undefined;

export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) {
    intl ??= new Intl.NumberFormat("en-US");
    return intl.format(n);
  }
  const digits = String(Math.abs(n));
  const grouped = digits.length <= 3 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 ? `-${grouped}` : grouped;
}
