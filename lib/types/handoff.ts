/** The wire shapes of "Continue in…" (GET/POST /api/sessions/[id]/handoff; docs/formats.md "Hand-off"). */

export type HandoffAgent = "pi" | "claude" | "codex";

/** `GET …/handoff?entry=…&format=…&preview=1`: what the file will be, before anything is written. */
export interface HandoffPreview {
  format: HandoffAgent;
  /** "Claude Code", "Codex CLI", "pi". */
  label: string;
  entryId: string;
  /** The new session's id in the agent (repeat it in the POST). */
  sessionId: string;
  /** The moment the file names (repeat it in the POST). */
  createdAt: string;
  fileName: string;
  /** Where "Write" puts the file (absolute). */
  path: string;
  writable: boolean;
  /** Why the file cannot be written there (download it instead). */
  why?: string;
  /** What the file will not hold, one sentence each. */
  notes: string[];
  /** The command that opens it: `claude --resume <id>`, `codex resume <id>`, `pi --resume`. */
  resume: string;
  bytes: number;
}

/** `POST …/handoff` body: the preview's choices and the path the user confirmed. */
export interface HandoffWriteRequest {
  entry: string;
  format: HandoffAgent;
  sessionId: string;
  createdAt: string;
  path: string;
  secrets?: "mask" | "include";
}

/** `POST …/handoff` 201. */
export interface HandoffWritten {
  path: string;
  sessionId: string;
  resume: string;
}
