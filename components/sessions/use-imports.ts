"use client";
/**
 * The state of the import drop zone: one item per chosen file, at most MAX_PARALLEL uploads at
 * a time, Cancel per file (aborts the request: the server rolls the import back), and
 * "Import as copy" for a session that is already stored (the same file, re-sent with asCopy=1).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ImportDoneEvent } from "@/lib/types/import-events";
import { keys } from "@/lib/query/keys";
import { formatBytes } from "@/lib/text/byte-size";
import { IMPORT_LIMIT_BYTES, uploadSessionFile } from "./upload-session-file";

const MAX_PARALLEL = 3;

export type ImportStatus = "queued" | "uploading" | "done" | "failed" | "cancelled" | "exists" | "declined";

export interface ImportItem {
  key: string;
  file: File;
  asCopy: boolean;
  status: ImportStatus;
  /** Bytes sent to the server. */
  sent: number;
  /** Entries the server has written so far. */
  entries: number;
  result?: ImportDoneEvent;
  error?: string;
  existingSessionId?: string;
}

let nextKey = 0;

export function useImports() {
  const qc = useQueryClient();
  const [items, setItems] = useState<ImportItem[]>([]);
  const controllers = useRef(new Map<string, AbortController>());

  const update = useCallback((key: string, patch: Partial<ImportItem>) => {
    setItems((all) => all.map((it) => (it.key === key ? { ...it, ...patch } : it)));
  }, []);

  const run = useCallback(
    async (item: ImportItem) => {
      const controller = new AbortController();
      controllers.current.set(item.key, controller);
      try {
        const outcome = await uploadSessionFile({
          file: item.file,
          asCopy: item.asCopy,
          signal: controller.signal,
          onUploadProgress: (sent) => update(item.key, { sent }),
          onProgress: (p) => update(item.key, { entries: p.entries }),
        });
        if (outcome.type === "done") {
          update(item.key, { status: "done", result: outcome, entries: outcome.entryCount, sent: item.file.size });
          void qc.invalidateQueries({ queryKey: keys.sessions() });
        } else if (outcome.code === "exists" && !item.asCopy) {
          update(item.key, { status: "exists", error: outcome.message, existingSessionId: outcome.existingSessionId });
        } else {
          update(item.key, { status: "failed", error: outcome.message });
        }
      } catch (error) {
        if (controller.signal.aborted) update(item.key, { status: "cancelled" });
        else update(item.key, { status: "failed", error: `${item.file.name}: ${(error as Error).message}` });
      } finally {
        controllers.current.delete(item.key);
      }
    },
    [qc, update],
  );

  // Starts queued files while fewer than MAX_PARALLEL are uploading.
  useEffect(() => {
    const active = items.filter((it) => it.status === "uploading").length;
    const next = items.filter((it) => it.status === "queued").slice(0, Math.max(0, MAX_PARALLEL - active));
    if (next.length === 0) return;
    const started = new Set(next.map((it) => it.key));
    setItems((all) => all.map((it) => (started.has(it.key) ? { ...it, status: "uploading" } : it)));
    for (const it of next) void run(it);
  }, [items, run]);

  // Leaving the page cancels what is still running.
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const c of running.values()) c.abort();
    };
  }, []);

  const add = useCallback((files: Iterable<File>) => {
    const added: ImportItem[] = [];
    for (const file of files) {
      const base = { key: `import-${nextKey++}`, file, asCopy: false, sent: 0, entries: 0 };
      if (!/\.jsonl$/i.test(file.name)) {
        added.push({ ...base, status: "failed", error: `${file.name}: not a .jsonl file — choose a session file saved by pi, oh-my-pi, Claude Code or Codex` });
      } else if (file.size > IMPORT_LIMIT_BYTES) {
        added.push({ ...base, status: "failed", error: `${file.name}: file is larger than the ${formatBytes(IMPORT_LIMIT_BYTES)} import limit` });
      } else {
        added.push({ ...base, status: "queued" });
      }
    }
    setItems((all) => [...added, ...all]);
  }, []);

  const cancel = useCallback(
    (key: string) => {
      const controller = controllers.current.get(key);
      if (controller) controller.abort();
      else setItems((all) => all.map((it) => (it.key === key && it.status === "queued" ? { ...it, status: "cancelled" } : it)));
    },
    [],
  );

  const importAsCopy = useCallback(
    (key: string) => update(key, { asCopy: true, status: "queued", sent: 0, entries: 0, error: undefined }),
    [update],
  );
  const decline = useCallback((key: string) => update(key, { status: "declined" }), [update]);
  const dismiss = useCallback((key: string) => setItems((all) => all.filter((it) => it.key !== key)), []);

  return { items, add, cancel, importAsCopy, decline, dismiss };
}
