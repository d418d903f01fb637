"use client";
/**
 * One tool call with its result, collapsible: a `read(src/a.ts)`-style header (tool-header.ts)
 * and its status; opened, the arguments on demand, edit/write as a diff, the subagent it started
 * (subagent-view.tsx) and the result with "Copy".
 */
import { structuredPatch } from "diff";
import { memo, useMemo } from "react";
import type { ToolCall, ToolResultMessage } from "@/lib/session/types";
import { CopyButton } from "./copy-button";
import { SubagentView } from "./subagent-view";
import { toolHeader } from "./tool-header";

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

export const ToolCallView = memo(function ToolCallView({ call, result, cwd }: { call: ToolCall; result?: ToolResultMessage; cwd?: string }) {
  const diff = useMemo(() => diffLines(call, result), [call, result]);
  const status = !result ? "no result" : result.isError ? "error" : result.prunedAt !== undefined ? "pruned" : "ok";
  return (
    <div className="space-y-1">
      <details className="rounded border border-line text-sm">
        <summary className="cursor-pointer select-none truncate px-2 py-1 font-mono">
          {toolHeader(call, cwd)}
          <span className={`ml-2 text-xs ${status === "error" ? "text-red-700 dark:text-red-300" : "text-muted"}`}>{status}</span>
        </summary>
        <div className="space-y-1 border-t border-line px-2 py-1">
          <details>
            <summary className="cursor-pointer text-xs text-muted">Arguments</summary>
            <pre className="max-h-48 overflow-auto font-mono text-xs whitespace-pre-wrap">{JSON.stringify(call.arguments, null, 2)}</pre>
          </details>
          {diff && <DiffView lines={diff} />}
          {result && (
            <>
              <div className="flex items-center gap-2 text-xs text-muted">
                {result.prunedAt !== undefined ? "Result (pruned; the original is kept)" : "Result"}
                <CopyButton text={() => resultText(result)} label="Copy tool output" />
              </div>
              <pre className="max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap">{resultText(result)}</pre>
            </>
          )}
        </div>
      </details>
      <SubagentView call={call} result={result} />
    </div>
  );
});
