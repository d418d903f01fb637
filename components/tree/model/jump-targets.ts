/**
 * The "Jump to" menu of the canvas (ui.md "A map of a real session"): it always offers the current
 * leaf, the first prompt, the last error, each compaction (latest first, with when it was made),
 * each label, each branch point, the edits to each file (the latest; how many) and every turn of
 * the current path by number. Pure: no React, no DOM. Linear in the rows.
 *
 * Items name entries (not nodes): the canvas shows the node that draws the entry, or its nearest
 * visible ancestor when the filter or search hides it.
 */
import { dayTime } from "@/components/tree/format";
import type { Landmark } from "@/components/tree/model/landmarks";
import { filesTouched } from "@/components/tree/model/turns";
import { FLAG } from "@/lib/session-view/tree-skeleton";
import type { SkeletonRow } from "@/lib/session-view/tree-skeleton-view";

export interface JumpItem {
  text: string;
  entryId: string;
}

export interface JumpGroup {
  label: string;
  items: JumpItem[];
}

/** Turns listed at most (a longer path lists every k-th turn, the last always). */
const MAX_TURNS = 1500;
const TEXT_CHARS = 70;

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > TEXT_CHARS ? `${t.slice(0, TEXT_CHARS - 1)}…` : t;
}

const prompt = (row: SkeletonRow) => clip(row.entry.firstLine ?? row.text.replace(/^user: /, ""));

export function jumpMenu(rows: readonly SkeletonRow[], landmarks: readonly Landmark[], leafId: string | null): JumpGroup[] {
  const groups: JumpGroup[] = [];
  const add = (label: string, items: JumpItem[]) => {
    if (items.length > 0) groups.push({ label, items });
  };
  let firstPrompt: SkeletonRow | undefined;
  let lastError: SkeletonRow | undefined;
  let errors = 0;
  const compactions: SkeletonRow[] = [];
  const labels: JumpItem[] = [];
  const turns: SkeletonRow[] = [];
  const files = new Map<string, { count: number; last: SkeletonRow }>();
  for (const row of rows) {
    const e = row.entry;
    const isPrompt = e.type === "message" && e.role === "user";
    if (isPrompt && row.isActive) {
      firstPrompt ??= row;
      turns.push(row);
    }
    if ((e.flags & (FLAG.error | FLAG.toolError)) !== 0) {
      errors++;
      if (!lastError || !(e.t <= lastError.entry.t)) lastError = row;
    }
    if (e.type === "compaction") compactions.push(row);
    if (row.label) labels.push({ text: `label: ${row.label}`, entryId: e.id });
    if (e.role === "toolResult" || e.role === "assistant") {
      for (const path of filesTouched([row.text])) {
        const f = files.get(path);
        if (!f) files.set(path, { count: 1, last: row });
        else {
          f.count++;
          if (!(e.t < f.last.entry.t)) f.last = row;
        }
      }
    }
  }
  firstPrompt ??= rows.find((r) => r.entry.type === "message" && r.entry.role === "user");

  const where: JumpItem[] = [];
  if (leafId !== null) where.push({ text: "Current leaf (you are here)", entryId: leafId });
  if (firstPrompt) where.push({ text: `First prompt: ${prompt(firstPrompt)}`, entryId: firstPrompt.entry.id });
  if (lastError) where.push({ text: `Last error (${errors} in all): ${clip(lastError.text)}`, entryId: lastError.entry.id });
  add("Go to", where);

  compactions.sort((a, b) => (b.entry.t || 0) - (a.entry.t || 0));
  add(
    "Compactions",
    compactions.map((r) => ({ text: Number.isNaN(r.entry.t) ? r.text : `${r.text} · ${dayTime(r.entry.t)}`, entryId: r.entry.id })),
  );
  add("Labels", labels);
  add(
    "Branch points",
    landmarks.flatMap((l) => l.parts.filter((p) => p.kind === "branchPoint").map((p) => ({ text: p.text, entryId: l.entryId }))),
  );
  add(
    "Edits to a file",
    [...files]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([path, f]) => ({ text: `${path} (${f.count} ${f.count === 1 ? "edit" : "edits"}, the last)`, entryId: f.last.entry.id })),
  );
  const step = Math.ceil(turns.length / MAX_TURNS);
  add(
    "Turns of the current path",
    turns.flatMap((row, i) => (i % step === 0 || i === turns.length - 1 ? [{ text: `turn ${i + 1}: ${prompt(row)}`, entryId: row.entry.id }] : [])),
  );
  return groups;
}
