/**
 * What a session file's format does not record, for the inspector's reconstruction of a turn
 * (lib/inspector/reconstruct.ts): said plainly, never guessed.
 * Pure: no network, disk or database access.
 *
 * - pi / oh-my-pi: the system prompt and tool definitions are not in the file (an oh-my-pi
 *   session_init entry names the system prompt; the reconstruction then shows it).
 * - Claude Code: no system prompt, no tool definitions; what Claude Code adds to a request by
 *   itself (attachments, reminders: kept as custom entries) is not rebuilt.
 * - Codex CLI: no base instructions, no tool definitions; after a `compacted` record Codex sent
 *   its replacement history, kept on the compaction entry, rather than a summary message; the
 *   reconstruction shows those items (lib/inspector/codex-history.ts) and says so.
 */
import type { SessionEntry } from "@/lib/session/types";

export const PI_GAP = "System prompt and tool definitions are not stored in the session file";
export const CLAUDE_CODE_GAP =
  "Claude Code files do not record the system prompt or the tool definitions, so neither is shown; attachments and reminders Claude Code added on its own (custom entries) are not rebuilt";
export const CODEX_GAP = "Codex rollouts do not record the base instructions (system prompt) or the tool definitions, so neither is shown";

/** The notes for a turn whose context path is `path` (root first), in a session whose header is `header`. */
export function reconstructionGaps(header: Readonly<Record<string, unknown>> | null | undefined, path: readonly SessionEntry[]): string[] {
  const format = header?.sourceFormat;
  if (format === "claude-code") return [CLAUDE_CODE_GAP];
  if (format !== "codex") return [PI_GAP];
  const notes = [CODEX_GAP];
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i];
    if (e?.type !== "compaction") continue;
    const history = e.preserveData?.codexReplacementHistory;
    if (Array.isArray(history)) {
      notes.push(
        `After compaction entry ${e.id} Codex sent its replacement history (${history.length} items), not a summary message: those items are shown where the summary would be`,
      );
    }
    break;
  }
  return notes;
}
