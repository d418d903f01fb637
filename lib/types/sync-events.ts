/**
 * The NDJSON events of `POST /api/sync`, one JSON object a line, shared by the route and the
 * "Sync folder" page (type-only on the client). Order: per run `start`, then per file
 * `progress`* and `file`, then `run`; with `watch`, further runs follow as the folders change;
 * `error` ends the stream on a failure. Cancelling (aborting the request) stops it.
 */
import type { FileOutcome } from "@/lib/sync/sync-file";

export type SyncStreamEvent =
  | { type: "start"; files: number; folders: string[] }
  | { type: "progress"; file: string; index: number; bytes: number; totalBytes?: number; entries: number }
  | { type: "file"; file: string; index: number; outcome: FileOutcome; text: string }
  | { type: "run"; kind: "initial" | "changes"; counts: Record<FileOutcome["kind"], number>; watching: boolean }
  | { type: "error"; message: string };
