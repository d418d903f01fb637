/**
 * Byte counts as Arbor writes them, everywhere (limits in messages, the Files panel, imports,
 * the tools' listings, the CLI's progress): "0 B", "812 B", "1.5 KB", "12 KB", "3.2 MB",
 * "256 MB" (binary multiples, as `ls -h`). One decimal below 10 of a unit, whole numbers
 * above; nothing for a negative or non-finite count. Pure, browser-safe.
 */

const UNITS = ["KB", "MB", "GB", "TB"] as const;

export function formatBytes(bytes: number): string {
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
