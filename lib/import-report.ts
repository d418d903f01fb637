/**
 * Words for what an import changed on the way in, shared by the CLI and the import row (pure,
 * browser-safe). Strings over 500,000 characters are cut before they are stored (session-engine.md §1.9);
 * the user must learn which entries lost content, and how much.
 */
import { groupDigits } from "@/lib/text/group-digits";

export interface TruncationReport {
  line: number;
  id: string;
  strings: number;
  charsRemoved: number;
  longest: number;
}

/** "line 3 (entry b): 1 string cut from 600,000 characters, 100,047 characters removed" */
export function describeTruncation(t: TruncationReport): string {
  const strings = t.strings === 1 ? "1 string" : `${groupDigits(t.strings)} strings`;
  return `line ${t.line} (entry ${t.id}): ${strings} cut from ${groupDigits(t.longest)} characters, ${groupDigits(t.charsRemoved)} characters removed`;
}

/** "2 entries were cut to 500,000 characters", or undefined when nothing was cut. */
export function truncationHeadline(truncatedCount: number): string | undefined {
  if (truncatedCount === 0) return undefined;
  const what = truncatedCount === 1 ? "1 entry was" : `${groupDigits(truncatedCount)} entries were`;
  return `${what} cut to 500,000 characters per text`;
}
