/**
 * The server's compact skeleton (skeleton-table.ts) equals resolveSkeleton over the same entries
 * (tree-skeleton.ts), built at once and grown by appends of every kind: seeded random turns with
 * compactions, branches and labels, pins, a result appended before its call, a later call reusing
 * an earlier call id (which renames every earlier result of that id), and an unanswered result.
 */
import { describe, expect, it } from "vitest";
import { generateSession } from "@/test/generators/session";
import { pinEntryFields } from "@/lib/session/pins";
import { SkeletonTable } from "@/lib/session-view/skeleton-table";
import { encodeRows } from "@/lib/session-view/skeleton-wire";
import { FLAG } from "@/lib/session-view/tree-skeleton";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";
import { assistantEntry, entry, labelEntry, messageEntry } from "@/test/session-factories";
import { toolCall, toolResultMsg } from "@/test/session-messages";

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function callIds(entries: readonly SessionEntry[]): string[] {
  const ids: string[] = [];
  for (const e of entries) {
    const content = e.type === "message" && e.message.role === "assistant" ? e.message.content : [];
    for (const b of content) if (b.type === "toolCall") ids.push(b.id);
  }
  return ids;
}

/** Entries that touch the resolution across appends, parented on `parent`. */
function oddities(n: number, parent: string, earlierCall: string): SessionEntry[] {
  return [
    messageEntry(`early-${n}`, parent, toolResultMsg(`late-${n}`, "answered later", { toolName: "bash" })),
    assistantEntry(`reuse-${n}`, parent, "", { toolCalls: [toolCall(earlierCall, "read", { path: `again-${n}.ts` })] }),
    messageEntry(`lost-${n}`, parent, toolResultMsg(`never-${n}`, "no call", { toolName: "grep" })),
    labelEntry(`label-${n}`, parent, parent, n % 2 ? "" : `mark ${n}`),
    entry("custom", `pin-${n}`, parent, pinEntryFields(parent, n % 2 === 0)),
  ];
}

function lateCall(n: number, parent: string): SessionEntry {
  return assistantEntry(`late-call-${n}`, parent, "", { toolCalls: [toolCall(`late-${n}`, "bash", { command: `echo ${n}` })] });
}

describe("SkeletonTable", () => {
  it("equals resolveSkeleton after a whole build and after every append", () => {
    const { entries: generated } = generateSession({ seed: 7, entries: 2400, branches: 6, compactions: true, labels: 20 });
    const rnd = random(7);
    const entries: SessionEntry[] = generated.slice(0, 600);
    const table = SkeletonTable.of(entries);
    expect(table.slice(0, table.length)).toEqual(resolveSkeleton(entries));
    let next = 600;
    for (let step = 0; next < generated.length; step++) {
      const take = 1 + Math.floor(rnd() * 120);
      entries.push(...generated.slice(next, next + take));
      next += take;
      const parent = entries.at(-1)!.id;
      if (step % 3 === 0) {
        const calls = callIds(entries);
        entries.push(...oddities(step, parent, calls[Math.floor(rnd() * calls.length)]!));
      }
      if (step % 3 === 1) entries.push(lateCall(step - 1, parent));
      table.sync();
      expect(table.length).toBe(entries.length);
      const expected = resolveSkeleton(entries);
      expect(table.slice(0, table.length)).toEqual(expected);
      const from = Math.floor(rnd() * entries.length);
      expect(table.slice(from, from + 50)).toEqual(expected.slice(from, from + 50));
      expect(table.flagsAt(from)).toBe(expected[from]!.flags);
      expect(table.encode(from, from + 2000)).toEqual(encodeRows(expected.slice(from, from + 2000)));
    }
    expect(SkeletonTable.of(entries).slice(0, entries.length)).toEqual(table.slice(0, table.length));
    expect(JSON.stringify(table.encode(0, table.length))).toBe(JSON.stringify(encodeRows(resolveSkeleton(entries))));
  });

  it("keeps a token count that is not a whole number (malformed content) exactly", () => {
    const { entries: generated } = generateSession({ seed: 9, entries: 200 });
    const entries = generated.slice(0, 100);
    const table = SkeletonTable.of(entries);
    const odd = assistantEntry("odd", entries.at(-1)!.id, "");
    (odd.message as unknown as { content: unknown[] }).content = [{ type: "text", text: 5 }];
    entries.push(odd, ...generated.slice(100));
    table.sync();
    const expected = resolveSkeleton(entries);
    expect(Number.isNaN(expected[100]!.tokens)).toBe(true);
    expect(table.slice(0, table.length)).toEqual(expected);
  });

  it("every FLAG bit fits below the bit the table keeps for itself (0x80)", () => {
    for (const bit of Object.values(FLAG)) expect(bit).toBeLessThan(0x80);
  });

  it("a view up to a count keeps its rows when the entries grow", () => {
    const { entries: generated } = generateSession({ seed: 3, entries: 300 });
    const entries = generated.slice(0, 200);
    const table = SkeletonTable.of(entries);
    const view = table.upTo(table.length);
    entries.push(...generated.slice(200));
    table.sync();
    expect(view.length).toBe(200);
    expect(view.slice(150, 400)).toEqual(resolveSkeleton(generated).slice(150, 200));
    expect(view.encode(150, 400)).toEqual(encodeRows(resolveSkeleton(generated).slice(150, 200)));
  });
});
