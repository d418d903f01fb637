/** The link from a Task tool result to the session of the subagent that ran it (imported Claude Code sessions; docs/formats.md). */
import Link from "next/link";
import type { ToolResultMessage } from "@/lib/session/types";

export function SubagentLink({ result }: { result: Pick<ToolResultMessage, "subagentSessionId"> | undefined }) {
  const id = result?.subagentSessionId;
  if (!id) return null;
  return (
    <Link href={`/sessions/${encodeURIComponent(id)}`} className="text-xs underline" aria-label={`Open the subagent session ${id}`}>
      Subagent session
    </Link>
  );
}
