"use client";
/**
 * Progress and outcome of the Files panel's uploads: a progress bar and "Cancel" per running
 * upload, then one line per finished upload ("Uploaded notes.txt (12 B)", or the server's
 * error in an alert). The list is a polite live region, so screen readers hear the outcomes.
 */
import { formatBytes } from "@/lib/text/byte-size";
import type { UploadItem, Uploads } from "./use-uploads";

function Row({ item, onCancel }: { item: UploadItem; onCancel(): void }) {
  if (item.status === "queued" || item.status === "uploading") {
    return (
      <li className="flex items-center gap-2 text-xs">
        <span className="min-w-0 truncate font-mono">{item.name}</span>
        <progress aria-label={`Uploading ${item.name}`} max={Math.max(1, item.size)} value={item.sent} className="h-2 w-24" />
        <span className="text-muted tabular-nums">
          {item.status === "queued" ? "waiting" : `${formatBytes(item.sent)} / ${formatBytes(item.size)}`}
        </span>
        <button type="button" onClick={onCancel} className="underline">
          Cancel
        </button>
      </li>
    );
  }
  if (item.status === "error") {
    return (
      <li className="text-xs text-red-700 dark:text-red-300">
        <span role="alert">{item.message}</span>
      </li>
    );
  }
  return <li className="text-xs text-muted">{item.message}</li>;
}

export function UploadList({ uploads }: { uploads: Uploads }) {
  if (uploads.items.length === 0) return null;
  const finished = uploads.items.some((it) => it.status !== "queued" && it.status !== "uploading");
  return (
    <div className="rounded border border-line p-1.5">
      <ul role="status" aria-label="Uploads" className="space-y-0.5">
        {uploads.items.map((item) => (
          <Row key={item.id} item={item} onCancel={() => uploads.cancel(item.id)} />
        ))}
      </ul>
      {finished && (
        <button type="button" onClick={uploads.clearFinished} className="mt-1 text-xs text-muted underline">
          Clear finished uploads
        </button>
      )}
    </div>
  );
}
