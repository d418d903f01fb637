"use client";
/**
 * A subagent under the tool call that started it (ui.md "Chat"; Claude Code's Task / Agent calls,
 * docs/formats.md "Subagents"): folded, "Subagent · Explore codebase"; opened, the subagent's own
 * conversation as one line per message (its session's tree rows, session-engine.md §16.2) and a
 * link to its session. Its session loads only when opened; one not imported says so.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { sessionDataOptions, sessionView } from "@/lib/query/session";
import { FLAG } from "@/lib/session-view/tree-skeleton";
import type { ToolCall, ToolResultMessage } from "@/lib/session/types";

const ROLE: Record<string, string> = { user: "User", assistant: "Assistant", toolResult: "Tool" };

function Transcript({ sessionId }: { sessionId: string }) {
  const { data, error, isPending } = useQuery({ ...sessionDataOptions(sessionId), retry: false });
  if (isPending) return <p className="text-xs text-muted">Loading the subagent's messages…</p>;
  if (error) return <p className="text-xs text-muted">Its session ({sessionId}) is not in Arbor: import the subagent's file (the parent's subagents folder) to read it here.</p>;
  const rows = sessionView(data).path.filter((r) => (r.flags & FLAG.notInChat) === 0);
  return (
    <ol aria-label="Subagent messages" className="max-h-72 space-y-0.5 overflow-auto text-xs">
      {rows.map((r) => (
        <li key={r.id} className="truncate">
          <span className="font-semibold text-muted">{ROLE[r.role ?? ""] ?? r.type}: </span>
          {r.text.replace(/^(user|assistant): /, "")}
        </li>
      ))}
    </ol>
  );
}

export function SubagentView({ call, result }: { call: ToolCall; result: Pick<ToolResultMessage, "subagentSessionId"> | undefined }) {
  const [open, setOpen] = useState(false);
  const id = result?.subagentSessionId;
  if (!id) return null;
  const args = (call.arguments ?? {}) as { description?: unknown; subagent_type?: unknown };
  const what = [args.subagent_type, args.description].filter((v): v is string => typeof v === "string" && v !== "").join(" · ");
  return (
    <details aria-label="Subagent" className="mt-1 rounded border-l-2 border-[var(--color-branch)] pl-2" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer select-none text-xs font-medium">Subagent{what ? ` · ${what}` : ""}</summary>
      <div className="mt-1 space-y-1">
        {open && <Transcript sessionId={id} />}
        <Link href={`/sessions/${encodeURIComponent(id)}`} className="text-xs underline" aria-label={`Open the subagent session ${id}`}>
          Open the subagent session
        </Link>
      </div>
    </details>
  );
}
