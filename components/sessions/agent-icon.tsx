/**
 * A session's agent in the list (docs/ui.md "Pages", `/`): a small monogram tile per format
 * (our own marks, not the tools' logos), named for screen readers and on hover.
 */
import { agentName } from "./list-groups";

const MARKS: Record<string, { text: string; className: string }> = {
  pi: { text: "π", className: "bg-slate-700 text-white dark:bg-slate-300 dark:text-black" },
  "claude-code": { text: "CC", className: "bg-orange-700 text-white dark:bg-orange-300 dark:text-black" },
  codex: { text: "Cx", className: "bg-emerald-800 text-white dark:bg-emerald-300 dark:text-black" },
  gemini: { text: "G", className: "bg-blue-700 text-white dark:bg-blue-300 dark:text-black" },
  opencode: { text: "oc", className: "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-black" },
};
const ARBOR = { text: "A", className: "bg-[var(--color-accent)] text-white dark:text-black" };

export function AgentIcon({ agent }: { agent: string | undefined }) {
  const mark = (agent && MARKS[agent]) || ARBOR;
  const name = agentName(agent);
  return (
    <span
      role="img"
      aria-label={name}
      title={name}
      className={`inline-flex h-6 w-6 shrink-0 select-none items-center justify-center rounded text-[11px] font-semibold leading-none ${mark.className}`}
    >
      <span aria-hidden="true">{mark.text}</span>
    </span>
  );
}
