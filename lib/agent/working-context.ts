/**
 * WorkingContext: the messages the next model call receives (session-engine.md §13 "Working context").
 *
 * It is `buildSessionContext` of the tree's current branch, minus a set of EXCLUDED entries:
 * trailing assistant messages the agent dropped (an overflow error before recovery, §13.2
 * step 7.3; a retryable error before a retry, §13.5 step 4; a trailing error after an
 * overflow compaction, §13.3 step 9). An excluded entry stays in the tree and in the store.
 *
 * Decision (spec open): exclusions survive rebuilds for the lifetime of the agent, so a message
 * dropped once is never sent by this agent again — even after a compaction brings it back into
 * buildSessionContext. A fresh agent over the same stored session starts with no exclusions,
 * as pi does on resume.
 *
 * The context is rebuilt from the tree on every read, so "rebuild the working context" after a
 * prune, compaction or navigation needs no extra step. Messages are matched to entries by
 * identity: buildSessionContext returns each message entry's own `message` object.
 */
import type { SessionTree } from "@/lib/session/tree/tree";
import type { AgentMessage, AssistantMessage } from "@/lib/session/types";

export class WorkingContext {
  private readonly excluded = new Set<string>();

  constructor(private readonly tree: SessionTree) {}

  messages(): AgentMessage[] {
    const { messages } = this.tree.buildContext();
    if (this.excluded.size === 0) return messages;
    const dropped = new Set<AgentMessage>();
    for (const id of this.excluded) {
      const entry = this.tree.getEntry(id);
      if (entry?.type === "message") dropped.add(entry.message);
    }
    return messages.filter((m) => !dropped.has(m));
  }

  /** The newest assistant message in the working context. */
  lastAssistant(): AssistantMessage | undefined {
    const messages = this.messages();
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (m?.role === "assistant") return m;
    }
    return undefined;
  }

  /**
   * Drops the last message if it is an assistant (with `stopReason: "error"` when `onlyErrors`).
   * Returns the dropped entry id, or undefined when nothing was dropped.
   */
  dropTrailingAssistant(opts: { onlyErrors?: boolean } = {}): string | undefined {
    const last = this.messages().at(-1);
    if (last?.role !== "assistant") return undefined;
    if (opts.onlyErrors && last.stopReason !== "error") return undefined;
    const id = this.entryIdOf(last);
    if (id !== undefined) this.excluded.add(id);
    return id;
  }

  isExcluded(entryId: string): boolean {
    return this.excluded.has(entryId);
  }

  excludedIds(): ReadonlySet<string> {
    return this.excluded;
  }

  /** The id of the branch entry holding `message` (searched newest first). */
  entryIdOf(message: AgentMessage): string | undefined {
    const branch = this.tree.getBranch();
    for (let i = branch.length - 1; i >= 0; i--) {
      const entry = branch[i];
      if (entry?.type === "message" && entry.message === message) return entry.id;
    }
    return undefined;
  }
}
