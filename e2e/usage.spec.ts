/**
 * What it cost (docs/usage.md): two imported sessions show their figures on the Usage page, the
 * CSV matches the table, and the session page shows the session's total. Expected figures come
 * from the generated entries, summed here.
 */
import { readFileSync } from "node:fs";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { formatMicros } from "@/lib/usage/prices";
import { importJsonl } from "./session-helpers";
import { expect, test } from "./test";

type Loose = Record<string, unknown>;
const num = (v: unknown) => (typeof v === "number" ? v : 0);

test("the Usage page shows the imported sessions' spend by day and model, and its CSV is the table", async ({ page, request }) => {
  // A day of its own (the database is shared with other specs and runs): a random one in 2001–2019.
  const day = new Date(Date.UTC(2001 + Math.floor(Math.random() * 19), Math.floor(Math.random() * 12), 1 + Math.floor(Math.random() * 27), 12));
  const sessions = [
    generateSession({ seed: 501, entries: 60, startTime: day.getTime(), cwd: "/e2e/usage-a" }),
    generateSession({ seed: 502, entries: 40, startTime: day.getTime() + 3_600_000, cwd: "/e2e/usage-b" }),
  ];
  const ids: string[] = [];
  for (const [i, s] of sessions.entries()) ids.push(await importJsonl(request, `usage-${i}.jsonl`, serializeSession(s.header, s.entries), { asCopy: true }));

  // Per model: tokens and the recorded cost in millionths, from the files.
  const expected = new Map<string, { tokens: number; cost: number }>();
  const perSession: number[] = [];
  for (const s of sessions) {
    let own = 0;
    for (const e of s.entries as unknown as Loose[]) {
      const m = e.message as Loose | undefined;
      if (e.type !== "message" || m?.role !== "assistant") continue;
      const u = m.usage as Loose;
      const tokens = num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
      if (tokens === 0) continue;
      const cost = Math.round(num((u.cost as Loose).total) * 1e6);
      const v = expected.get(String(m.model)) ?? { tokens: 0, cost: 0 };
      v.tokens += tokens;
      v.cost += cost;
      expected.set(String(m.model), v);
      own += cost;
    }
    perSession.push(own);
  }

  const date = day.toISOString().slice(0, 10);
  await page.goto(`/usage?from=${date}&to=${date}&by=day&stack=model`);
  await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
  await expect(page.getByTestId("usage-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  const table = page.getByTestId("usage-table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(expected.size);
  for (const [model, v] of expected) {
    const row = rows.filter({ has: page.getByRole("cell", { name: model, exact: true }) });
    await expect(row.locator("td").nth(3)).toHaveText(v.tokens.toLocaleString("en-US"));
    await expect(row.locator("td").nth(2)).toHaveText(`$${(v.cost / 1e6).toFixed(2)}`);
  }

  // Sorted by cost, costliest first; the CSV has the same rows in the same order.
  await table.getByRole("button", { name: "Cost" }).click();
  const shown = await rows.locator("td:nth-child(2)").allTextContents();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8").trimEnd().split("\r\n");
  expect(csv.slice(1).map((l) => l.split(",")[1])).toEqual(shown);
  for (const line of csv.slice(1)) {
    const [, model, cost, , , , , , total] = line.split(",");
    expect(Math.round(Number(cost) * 1e6)).toBe(expected.get(model!)!.cost);
    expect(Number(total)).toBe(expected.get(model!)!.tokens);
  }

  // The session page: the session's own total.
  await page.goto(`/sessions/${ids[0]}`);
  await expect(page.getByTestId("session-cost").first()).toContainText(`$${(perSession[0]! / 1e6).toFixed(2)}`);
});

test("the canvas shows what a branch cost", async ({ page, request }) => {
  const day = Date.UTC(2002 + Math.floor(Math.random() * 17), Math.floor(Math.random() * 12), 1 + Math.floor(Math.random() * 27), 12);
  const s = generateSession({ seed: 503, entries: 24, branches: 1, startTime: day });
  const id = await importJsonl(request, "usage-branches.jsonl", serializeSession(s.header, s.entries), { asCopy: true });
  // Independently: each child of a branch point starts a branch that runs down while one child follows.
  const entries = s.entries as unknown as Loose[];
  const children = new Map<string, Loose[]>();
  for (const e of entries) if (typeof e.parentId === "string") children.set(e.parentId, [...(children.get(e.parentId) ?? []), e]);
  const costOf = (e: Loose) => {
    const m = e.message as Loose | undefined;
    return e.type === "message" && m?.role === "assistant" ? Math.round(num(((m.usage as Loose).cost as Loose)?.total) * 1e6) : 0;
  };
  const branchCosts: { start: string; cost: string }[] = [];
  for (const kids of children.values()) {
    if (kids.length < 2) continue;
    for (const start of kids) {
      let sum = 0;
      let at: Loose | undefined = start;
      while (at) {
        sum += costOf(at);
        const next: Loose[] = children.get(String(at.id)) ?? [];
        at = next.length === 1 ? next[0] : undefined;
      }
      if (sum > 0) branchCosts.push({ start: String(start.id), cost: formatMicros(sum) });
    }
  }
  expect(branchCosts.length).toBeGreaterThan(0);
  // Centred on a branch's first entry (the canvas zooms in to its node; zoomed out, nodes are bars).
  const { start, cost } = branchCosts[0]!;
  await page.goto(`/sessions/${id}?entry=${start}`);
  const badge = page.locator(`[data-id="${start}"]`).getByTestId("branch-cost");
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText(`Branch cost ${cost}`);

  // "Colour by cost" tints every node by its branch's share of the costliest branch, in words on hover.
  await page.getByRole("button", { name: "Colour by cost" }).click();
  const node = page.locator(`[data-id="${start}"] .tree-node`);
  await expect(node).toHaveClass(/tree-node--heat/);
  await expect(node).toHaveAttribute("title", /This branch cost \d+ % of the costliest branch/);
});

test("a price set on the Prices page prices a model the catalogue does not know", async ({ page, request }) => {
  const model = `acme-e2e-${Math.random().toString(36).slice(2, 8)}`;
  const at = Date.UTC(2003, 3, 3, 12);
  const lines = [JSON.stringify({ type: "session", version: 3, id: `${model}-s`, timestamp: new Date(at).toISOString(), cwd: "/e2e/prices" })];
  let parent: string | null = null;
  for (let i = 0; i < 3; i++) {
    const ts = new Date(at + i * 60_000).toISOString();
    lines.push(JSON.stringify({ type: "message", id: `u${i}`, parentId: parent, timestamp: ts, message: { role: "user", content: `q${i}`, timestamp: at + i * 60_000 } }));
    lines.push(
      JSON.stringify({
        type: "message", id: `a${i}`, parentId: `u${i}`, timestamp: ts,
        message: { role: "assistant", content: [{ type: "text", text: `a${i}` }], api: "openai-completions", provider: "acme", model,
          usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: at + i * 60_000 + 1 },
      }),
    );
    parent = `a${i}`;
  }
  await importJsonl(request, "prices.jsonl", `${lines.join("\n")}\n`, { asCopy: true });

  await page.goto("/usage/prices");
  await expect(page.getByRole("row", { name: new RegExp(model) })).toContainText("price unknown for 3,300 tokens");
  const form = page.getByRole("form", { name: "Set a model's price" });
  await form.getByLabel("Model id").fill(model);
  await form.getByLabel("Input $/M").fill("2");
  await form.getByLabel("Output $/M").fill("10");
  await form.getByRole("button", { name: "Save price" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved: 3 calls repriced.");
  // 3 × (1000 × $2 + 100 × $10) per million = $0.009.
  await page.goto("/usage?from=2003-04-03&to=2003-04-03&by=day&stack=model");
  const row = page.getByTestId("usage-table").locator("tbody tr").filter({ has: page.getByRole("cell", { name: model, exact: true }) });
  await expect(row.locator("td").nth(2)).toHaveText("$0.0090");
});
