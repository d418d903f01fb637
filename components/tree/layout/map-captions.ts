/**
 * The map's turn captions (ui.md "A map of a real session"): zoomed out, where a card's own text
 * is too small to read, each turn may get a caption in screen space beside its card — the pause
 * before it ("3 h later"), its errors and failed tools ("✕ 2 errors"), its number and prompt
 * ("12 · fix the parser") — placed with the landmarks (caption-placement.ts), never over a card
 * or another caption. Which ones fit is decided by priority: turns with errors, then those after
 * a pause, then the larger turns. In the entries view, user messages get their prompt.
 * Pure: no React, no DOM.
 */
import { bodyText, duration } from "@/components/tree/format";
import type { Landmark, LandmarkPart } from "@/components/tree/model/landmarks";
import type { TreeNode } from "@/components/tree/types";

/**
 * Zoomed out below this, a turn card's text is unreadable (12 px → under 6): the card is drawn as
 * its marks (tree.css `--map`) and the map's captions are drawn.
 */
export const PROMPT_CAPTION_ZOOM = 0.5;
/** Longest prompt a caption carries (it may be cut shorter to fit: caption-placement.ts). */
const PROMPT_CHARS = 60;

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > PROMPT_CHARS ? `${t.slice(0, PROMPT_CHARS - 1)}…` : t;
}

export function mapCaptions(nodes: readonly TreeNode[]): Landmark[] {
  const out: Landmark[] = [];
  for (const n of nodes) {
    if (n.type === "turn") {
      const d = n.data;
      const parts: LandmarkPart[] = [];
      if (d.gapBefore !== undefined) parts.push({ kind: "gap", text: `${duration(d.gapBefore)} later` });
      const problems = d.errors + d.failedTools;
      if (problems > 0) parts.push({ kind: "error", text: `✕ ${problems} ${problems === 1 ? "error" : "errors"}` });
      parts.push({ kind: "prompt", text: clip(`${d.ordinal} · ${d.prompt || "(no text)"}`) });
      const priority = problems > 0 ? 6 : d.gapBefore !== undefined ? 6.2 : 7 + 0.9 * (1 - d.sizeShare);
      out.push({ nodeId: n.id, entryId: d.entryId, parts, priority });
    } else if (n.type === "span") {
      const d = n.data;
      const parts: LandmarkPart[] = [];
      const problems = d.errors + d.failedTools;
      if (problems > 0) parts.push({ kind: "error", text: `✕ ${problems} ${problems === 1 ? "error" : "errors"}` });
      parts.push({ kind: "prompt", text: clip(`${d.firstOrdinal}–${d.lastOrdinal} · ${d.prompt || "(no text)"}`) });
      out.push({ nodeId: n.id, entryId: d.entryId, parts, priority: problems > 0 ? 6 : 7 + 0.9 * (1 - d.sizeShare) });
    } else if (n.type === "entry" && n.data.isUserMessage) {
      out.push({ nodeId: n.id, entryId: n.data.entryId, parts: [{ kind: "prompt", text: clip(bodyText(n.data.text, "user")) }], priority: 7 });
    }
  }
  return out;
}
