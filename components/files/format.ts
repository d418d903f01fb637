/** Formatting helpers of the Files panel. Pure. */

const UNITS = ["KB", "MB", "GB", "TB"] as const;

/** A byte count for people: "0 B", "999 B", "1.5 KB", "12 KB", "3.2 MB" (1 KB = 1024 B). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "";
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${shown} ${UNITS[unit]}`;
}
