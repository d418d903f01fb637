"use client";
/**
 * The "Files" view of a session's workspace (the folder its tools read and write): the tree with
 * sizes, each file a download link, "Upload files" (file picker, several at once) and
 * drag-and-drop onto the panel, and "Refresh". The listing's query key sits under the session's
 * (lib/query/files.ts), so it refreshes by itself after every turn, e.g. one that wrote or
 * edited files. Mounted as the Inspector's "Files" tab; its region is named "Files".
 */
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { useFileDrop } from "@/components/ui-hooks/use-file-drop";
import { MAX_UPLOAD_BYTES } from "@/lib/chat-protocol/workspace-limits";
import { workspaceFilesOptions } from "@/lib/query/files";
import { FileTree } from "./file-tree";
import { formatBytes } from "@/lib/text/byte-size";
import { UploadList } from "./upload-list";
import { useUploads } from "./use-uploads";
import { groupDigits } from "@/lib/text/group-digits";

export function FilePanel({ sessionId }: { sessionId: string }) {
  const files = useQuery(workspaceFilesOptions(sessionId));
  const uploads = useUploads(sessionId);
  const input = useRef<HTMLInputElement>(null);
  const { dragging, handlers } = useFileDrop((dropped) => uploads.add(dropped));

  const data = files.data;
  return (
    <section
      aria-label="Files"
      {...handlers}
      className={`relative flex min-h-full flex-col gap-2 rounded ${dragging ? "outline-2 outline-dashed outline-[var(--color-accent)]" : ""}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => input.current?.click()}
          className="rounded bg-[var(--color-accent)] px-2 py-0.5 text-xs font-medium text-white dark:text-black"
        >
          Upload files
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          onChange={(e) => {
            if (e.target.files) uploads.add(Array.from(e.target.files));
            e.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => void files.refetch()}
          disabled={files.isFetching}
          className="rounded border border-line px-2 py-0.5 text-xs disabled:opacity-50"
        >
          Refresh
        </button>
        <span className="text-xs text-muted">
          {files.isFetching ? "Refreshing…" : `Drop files here to upload (up to ${formatBytes(MAX_UPLOAD_BYTES)} each)`}
        </span>
      </div>

      <UploadList uploads={uploads} />

      {files.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Could not list the workspace: {files.error.message}. Try Refresh.
        </p>
      )}
      {data && data.nodes.length === 0 && (
        <p className="text-sm text-muted">
          The workspace is empty. Upload files, or ask the agent to write some: its tools read and write only here.
        </p>
      )}
      {data && data.nodes.length > 0 && <FileTree sessionId={sessionId} nodes={data.nodes} />}
      {data?.truncated && (
        <p className="text-xs text-muted">Showing the first {groupDigits(data.count)} entries; the workspace holds more.</p>
      )}
      {!data && !files.error && <p className="text-sm text-muted">Loading files…</p>}
      {dragging && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center rounded bg-[var(--bg)]/80 text-sm font-medium">
          Drop files to upload them to the workspace
        </div>
      )}
    </section>
  );
}
