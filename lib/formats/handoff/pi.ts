/**
 * A branch written as a pi session file (v3 JSONL, session-engine.md §1; docs/formats.md
 * "Hand-off") under `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`, where pi's `/resume` lists it.
 * Pure: no network, disk or database access.
 *
 * Contract: a new `session` header (a fresh id, the session's cwd and title, `version: 3`), then
 * the path's entries verbatim, in path order (the root's parent cleared). pi holds every entry
 * kind Arbor has, so only what lies off the path is not written; Arbor's pins travel as the
 * custom entries they are (pi keeps them and ignores them).
 */
import { CURRENT_SESSION_VERSION, type SessionHeader } from "@/lib/session/types";
import { type HandoffInput, type HandoffOutput, offPathNotes } from "./plan";

/** pi's folder for a project: the cwd without its leading separator, separators and ":" made "-", between "--". */
export function piProjectFolder(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

export function writePi(input: HandoffInput): HandoffOutput {
  const sessionId = input.sessionId ?? input.newId();
  const timestamp = input.now.toISOString();
  const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id: sessionId, timestamp, cwd: input.cwd, ...(input.title ? { title: input.title } : {}) };
  const entries = input.path.map((e, i) => (i === 0 && e.parentId !== null ? { ...e, parentId: null } : e));
  const notes = offPathNotes(input);
  return {
    format: "pi",
    sessionId,
    fileName: `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`,
    folder: piProjectFolder(input.cwd),
    text: `${[header, ...entries].map((l) => JSON.stringify(l)).join("\n")}\n`,
    notes,
  };
}
