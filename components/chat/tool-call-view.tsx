"use client";
/** One tool call with its result, collapsible; edit/write show a diff (issue 8). */
import { structuredPatch } from "diff";
import { memo, useMemo } from "react";
import { toolCallText } from "@/lib/session/tree-row-text";
import type { ToolCall, ToolResultMessage } from "@/lib/session/types";
import { SubagentLink } from "./subagent-link";

function resultText(result: ToolResultMessage): string {
  return result.content
    .map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`))
    .join("");
}

/** A unified diff from the tool's details when present, else computed from the call's arguments. */
function diffLines(call: ToolCall, result: ToolResultMessage | undefined): string[] | undefined {
  const details = result?.details as { diff?: unknown } | undefined;
  if (typeof details?.diff === "string") return details.diff.split("\n");
  const args = call.arguments as { path?: unknown; oldText?: unknown; newText?: unknown; content?: unknown };
  const path = typeof args.path === "string" ? args.path : "file";
  if (call.name === "edit" && typeof args.oldText === "string" && typeof args.newText === "string") {
    const patch = structuredPatch(path, path, args.oldText, args.newText, "", "", { context: 2 });
    return patch.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]);
  }
  if (call.name === "write" && typeof args.content === "string") {
    return args.content.split("\n").map((l) => `+${l}`);
  }
  return undefined;
}

function DiffView({ lines }: { lines: string[] }) {
  return (
    <figure aria-label="Diff" className="mt-1 max-h-96 overflow-auto rounded border border-line bg-panel p-2 font-mono text-xs whitespace-pre">
      {lines.map((line, i) => {
        const kind = line.startsWith("+") && !line.startsWith("+++") ? "add" : line.startsWith("-") && !line.startsWith("---") ? "del" : "ctx";
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no identity besides their position
            key={i}
            className={kind === "add" ? "bg-green-500/15" : kind === "del" ? "bg-red-500/15" : ""}
          >
            <span className="sr-only">{kind === "add" ? "added: " : kind === "del" ? "removed: " : ""}</span>
            {line}
          </div>
        );
      })}
    </figure>
  );
}

export const ToolCallView = memo(function ToolCallView({ call, result }: { call: ToolCall; result?: ToolResultMessage }) {
  const diff = useMemo(() => diffLines(call, result), [call, result]);
  const status = !result ? "no result" : result.isError ? "error" : result.prunedAt !== undefined ? "pruned" : "ok";
  return (
    <details className="rounded border border-line text-sm">
      <summary className="cursor-pointer select-none px-2 py-1 font-mono">
        {toolCallText(call)}
        <span className={`ml-2 text-xs ${status === "error" ? "text-red-700 dark:text-red-300" : "text-muted"}`}>{status}</span>
      </summary>
      <div className="border-t border-line px-2 py-1">
        <div className="text-xs text-muted">Arguments</div>
        <pre className="max-h-48 overflow-auto font-mono text-xs whitespace-pre-wrap">{JSON.stringify(call.arguments, null, 2)}</pre>
        {diff && <DiffView lines={diff} />}
        {result && (
          <>
            <SubagentLink result={result} />
            <div className="mt-1 text-xs text-muted">{result.prunedAt !== undefined ? "Result (pruned; the original is kept)" : "Result"}</div>
            <pre className="max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap">{resultText(result)}</pre>
          </>
        )}
      </div>
    </details>
  );
});
