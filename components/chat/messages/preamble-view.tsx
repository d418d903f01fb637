"use client";
/**
 * Agent preambles and command records (preamble.ts) as one folded, labelled block: "System ·
 * permissions instructions, environment context" or "Command · /mcp", the text on demand.
 */
import type { PreambleBlock } from "./preamble";
import { preambleTitle } from "./preamble";

export function PreambleView({ blocks }: { blocks: readonly PreambleBlock[] }) {
  if (blocks.length === 0) return null;
  return (
    <details aria-label="system / command block" className="rounded border border-dashed border-line px-2 py-1 text-sm">
      <summary className="cursor-pointer select-none text-xs text-muted">{preambleTitle(blocks)}</summary>
      <div className="mt-1 space-y-2">
        {blocks.map((b, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no id besides their place
          <section key={i} aria-label={b.label}>
            <div className="text-xs font-semibold text-muted">{b.label}</div>
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words font-mono text-xs">{b.body}</pre>
          </section>
        ))}
      </div>
    </details>
  );
}
