/**
 * The NDJSON events of `POST /api/sync`, one JSON object a line, shared by the route and the
 * "Sync folder" page (type-only on the client). Order: per run `start`, then per file
 * `progress`* and `file`, then `run`; with `watch`, further runs follow as the folders change;
 * `error` ends the stream on a failure. Cancelling (aborting the request) stops it.
 */
import type { FormatId } from "@/lib/formats/types";

/** What one sync of one file did (lib/sync/sync-file.ts `syncFile`). */
export type FileOutcome =
  | { kind: "imported"; sessionId: string; format: FormatId; entries: number; records: number; adopted?: true; held?: true }
  | { kind: "appended"; sessionId: string; added: number; held?: true }
  | { kind: "unchanged"; sessionId: string }
  | { kind: "rewritten"; sessionId: string; previousSessionId: string; version: number; entries: number; why: string }
  | { kind: "waiting"; why: string }
  | { kind: "gone"; sessionId: string }
  | { kind: "failed"; message: string };

export type SyncStreamEvent =
  | { type: "start"; files: number; bytes: number; folders: string[] }
  | { type: "progress"; file: string; index: number; bytes: number; totalBytes?: number; entries: number }
  | { type: "file"; file: string; index: number; bytes: number; outcome: FileOutcome; text: string }
  | { type: "run"; kind: "initial" | "changes"; counts: Record<FileOutcome["kind"], number>; watching: boolean }
  | { type: "error"; message: string };
