/** GET /api/sessions/[id]/usage on the real database: the branches' costs add up to the session's. */
import { describe, expect, it } from "vitest";
import { appendEntries, branch, createSession } from "@/lib/db";
import type { BranchCost } from "@/lib/usage/branches";
import { assistantMsg, userMsg } from "@/test/session-messages";
import { useTestDatabase } from "@/test/db";
import { GET } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const req = (id: string) => new Request(`http://localhost/api/sessions/${id}/usage`);
const priced = (text: string, dollars: number, tokens: number) =>
  assistantMsg(text, { usage: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: tokens, cost: { input: dollars, output: 0, cacheRead: 0, cacheWrite: 0, total: dollars } } });

describe("GET /api/sessions/[id]/usage", () => {
  it("gives each branch's cost, the abandoned one included, adding up to the session's total", async () => {
    const { id } = await createSession({ title: "Costs" });
    const main = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: userMsg("q") },
        { type: "message", message: priced("a1", 0.5, 1000) },
        { type: "message", message: userMsg("q2") },
        { type: "message", message: priced("a2", 1.25, 2000) },
      ],
    });
    const [, a1] = main.entries;
    await branch({ sessionId: id, expectedLeafId: main.leafId, targetId: a1!.id });
    const side = await appendEntries({
      sessionId: id,
      expectedLeafId: a1!.id,
      entries: [
        { type: "message", message: userMsg("other") },
        { type: "message", message: priced("b", 2, 500) },
      ],
    });

    const res = await GET(req(id), params(id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { own: { costMicros: number; tokens: number }; branches: BranchCost[] };
    expect(body.own).toMatchObject({ costMicros: 3_750_000, tokens: 3500 });
    const byStart = new Map(body.branches.map((b) => [b.startId, b]));
    expect(byStart.get(main.entries[0]!.id)).toMatchObject({ costMicros: 500_000, tokens: 1000, forkedFrom: null });
    expect(byStart.get(main.entries[2]!.id)).toMatchObject({ costMicros: 1_250_000, tokens: 2000, forkedFrom: a1!.id });
    expect(byStart.get(side.entries[0]!.id)).toMatchObject({ costMicros: 2_000_000, tokens: 500, forkedFrom: a1!.id });
    expect(body.branches.reduce((s, b) => s + b.costMicros, 0)).toBe(body.own.costMicros);

    const missing = await GET(req("no-such-session"), params("no-such-session"));
    expect(missing.status).toBe(404);
  });
});
