/**
 * The session page's cost strip, grouped in the database (cost-strip.ts), equals the runs of
 * consecutive calls taken from the session's own rows (sessionUsage, oldest first), and its
 * totals equal the rows' sums.
 */
import { describe, expect, it } from "vitest";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { importSession, sessionCostStrip, sessionUsage } from "..";

useTestDatabase();

/** The reference: rows in time order cut into runs of ⌈n / max⌉. */
async function expected(sessionId: string, max: number) {
  const { rows, own } = await sessionUsage({ sessionId });
  const per = Math.ceil(rows.length / max);
  const segments = [];
  for (let i = 0; i < rows.length; i += per) {
    const run = rows.slice(i, i + per);
    const priced = run.filter((r) => r.recordedCostMicros !== undefined);
    const first = run[0]!;
    segments.push({
      key: first.entryId,
      kind: run.every((r) => r.kind === "message") ? "message" : run.length === 1 ? first.kind : "mixed",
      label: run.length === 1 ? `#${i + 1} ${first.kind === "message" ? "" : `${first.kind} · `}${first.model}` : `#${i + 1}–${i + run.length}`,
      ...(priced.length > 0 ? { cost: priced.reduce((s, r) => s + r.recordedCostMicros!, 0) } : {}),
      tokens: run.reduce((s, r) => s + r.input + r.output + r.cacheRead + r.cacheWrite, 0),
    });
  }
  return { segments, own, calls: rows.length };
}

describe("the session page's cost strip", () => {
  it("groups a long session's calls into runs, as its rows cut in order do", async () => {
    const g = generateSession({ seed: 71, entries: 1_500, branches: 2 });
    const { sessionId } = await importSession({ source: chunked(serializeSession(g.header, g.entries)), fileName: "strip.jsonl" });
    for (const max of [200, 7]) {
      const want = await expected(sessionId, max);
      expect(want.calls, "the generated session has more calls than segments").toBeGreaterThan(max);
      const strip = await sessionCostStrip({ sessionId, maxSegments: max });
      expect(strip.segments).toEqual(want.segments);
      expect(strip.segments.length).toBeLessThanOrEqual(max);
      expect(strip.own).toEqual(want.own);
    }
    // Fewer calls than segments: one segment per call, named by its number and model.
    const small = generateSession({ seed: 72, entries: 30 });
    const few = await importSession({ source: chunked(serializeSession(small.header, small.entries)), fileName: "strip-small.jsonl" });
    const want = await expected(few.sessionId, 200);
    const strip = await sessionCostStrip({ sessionId: few.sessionId, maxSegments: 200 });
    expect(strip.segments).toEqual(want.segments);
    expect(strip.segments.length).toBe(want.calls);
    expect(strip.segments[0]!.label).toMatch(/^#1 \S/);
  });
});
