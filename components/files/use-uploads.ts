"use client";
/**
 * The Files panel's upload queue: files are sent one after another (so a large batch does not
 * open dozens of connections), each with its progress, a Cancel, and its outcome in plain words.
 * After every finished upload the workspace listing is invalidated, so the tree shows it.
 * Files over MAX_UPLOAD_BYTES are refused before anything is sent. Uploads keep going when the
 * panel unmounts (switching inspector tabs must not cancel a large upload); only Cancel stops one.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { MAX_UPLOAD_BYTES } from "@/lib/chat-protocol/workspace-limits";
import { filesKeys } from "@/lib/query/files";
import { formatBytes } from "@/lib/text/byte-size";
import { uploadWorkspaceFile } from "./upload-workspace-file";

export type UploadStatus = "queued" | "uploading" | "done" | "error" | "cancelled";

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  sent: number;
  status: UploadStatus;
  /** The outcome in words (errors carry the server's message). */
  message?: string;
}

export interface Uploads {
  items: UploadItem[];
  add(files: Iterable<File>): void;
  cancel(id: number): void;
  /** Forgets finished items (done, failed, cancelled). */
  clearFinished(): void;
}

let nextId = 1;

export function useUploads(sessionId: string): Uploads {
  const qc = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const files = useRef(new Map<number, File>());
  const controllers = useRef(new Map<number, AbortController>());
  const chain = useRef<Promise<void>>(Promise.resolve());

  const patch = useCallback((id: number, p: Partial<UploadItem>) => {
    setItems((old) => old.map((it) => (it.id === id ? { ...it, ...p } : it)));
  }, []);

  const run = useCallback(
    async (id: number) => {
      const file = files.current.get(id);
      const controller = controllers.current.get(id);
      if (!file || !controller || controller.signal.aborted) return;
      patch(id, { status: "uploading" });
      try {
        const r = await uploadWorkspaceFile({
          sessionId,
          file,
          signal: controller.signal,
          onProgress: (sent) => patch(id, { sent }),
        });
        if (r.ok) patch(id, { status: "done", sent: r.size, message: `Uploaded ${r.path} (${formatBytes(r.size)})` });
        else patch(id, { status: "error", message: r.message });
      } catch {
        patch(id, { status: "cancelled", message: `Cancelled ${file.name}; nothing was saved` });
      } finally {
        files.current.delete(id);
        controllers.current.delete(id);
        await qc.invalidateQueries({ queryKey: filesKeys.list(sessionId) });
      }
    },
    [sessionId, qc, patch],
  );

  const add = useCallback(
    (list: Iterable<File>) => {
      const added: UploadItem[] = [];
      for (const file of list) {
        const id = nextId++;
        if (file.size > MAX_UPLOAD_BYTES) {
          added.push({
            id,
            name: file.name,
            size: file.size,
            sent: 0,
            status: "error",
            message: `${file.name} is ${formatBytes(file.size)}, over the ${formatBytes(MAX_UPLOAD_BYTES)} upload limit`,
          });
          continue;
        }
        files.current.set(id, file);
        controllers.current.set(id, new AbortController());
        added.push({ id, name: file.name, size: file.size, sent: 0, status: "queued" });
        chain.current = chain.current.then(() => run(id));
      }
      setItems((old) => [...old, ...added]);
    },
    [run],
  );

  const cancel = useCallback(
    (id: number) => {
      const controller = controllers.current.get(id);
      if (!controller) return;
      controller.abort();
      // A queued item never starts; an uploading one reports "cancelled" from run().
      setItems((old) =>
        old.map((it) => (it.id === id && it.status === "queued" ? { ...it, status: "cancelled", message: `Cancelled ${it.name}` } : it)),
      );
    },
    [],
  );

  const clearFinished = useCallback(() => {
    setItems((old) => old.filter((it) => it.status === "queued" || it.status === "uploading"));
  }, []);

  return { items, add, cancel, clearFinished };
}
