/**
 * The fact-check score of the offline summariser (lib/llm/offline-summary.ts), plain and with a
 * focus, on a generated session and on the shared real session when present (docs/engine.md "Arbor extensions around compaction"). The
 * scores are printed so they can be reported; the test pins that a focus on instructions, errors
 * and numbers never carries fewer facts than the plain summary, and that citing sources (§19.2)
 * carries exactly as many.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { citedIds } from "@/lib/compaction/citations";
import { compact } from "@/lib/compaction/compact";
import { type FactCheck, factCheckCompaction, scoreText } from "@/lib/compaction/fact-check";
import { prepareCompaction } from "@/lib/compaction/prepare";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { extractiveSummary } from "@/lib/llm/offline-summary";
import { loadPrompts } from "@/lib/llm/prompts";
import { generateSession } from "@/test/generators/session";
import { loadSession } from "@/lib/session/file/load";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { DEFAULT_COMPACTION_SETTINGS } from "@/lib/settings/schema";
import { hasFixtures, LARGE_SESSION } from "@/test/fixtures";

const FOCUS = "instructions, errors, numbers and next steps";

async function offlineCheck(header: SessionHeader, path: SessionEntry[], focus?: string, citeSources = false): Promise<FactCheck & { summary: string }> {
  const prompts = (() => {
    try {
      return loadPrompts();
    } catch {
      return TEST_PROMPTS;
    }
  })();
  const prep = prepareCompaction(path, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 4000, ...(citeSources ? { citeSources } : {}) })!;
  const result = await compact(
    prep,
    { summarize: async (req) => ({ stopReason: "stop", text: extractiveSummary(req.prompt) }), prompts },
    focus ? { customInstructions: focus } : {},
  );
  const last = path.at(-1)!;
  const entry = { type: "compaction", id: "fc000000", parentId: last.id, timestamp: last.timestamp, ...result } as SessionEntry;
  return { ...factCheckCompaction([...path, entry], entry.id, { cwd: header.cwd })!, summary: result.summary };
}

const line = (name: string, c: FactCheck) => `${name}: ${scoreText(c)} (${c.byKind.map((k) => `${k.kind} ${k.carried}/${k.total}`).join(", ")})`;

describe("offline summariser fact-check score", () => {
  it("on a generated session", async () => {
    const g = generateSession({ seed: 21, entries: 800 });
    const path = loadSession(`${[g.header, ...g.entries].map((e) => JSON.stringify(e)).join("\n")}\n`).tree.getBranch();
    const plain = await offlineCheck(g.header, path);
    const focused = await offlineCheck(g.header, path, FOCUS);
    const cited = await offlineCheck(g.header, path, undefined, true);
    console.log(`[fact-check] generated ${line("offline", plain)}\n[fact-check] generated ${line("focused", focused)}\n[fact-check] generated ${line("cited", cited)}`);
    // Cited summaries tag their items with entries of the summarised span only (§19.2).
    const ids = new Set(path.map((e) => e.id));
    expect(citedIds(cited.summary).length).toBeGreaterThan(0);
    expect(citedIds(cited.summary).every((id) => ids.has(id))).toBe(true);
    // Tags come on top of the summary's budget: citing never costs a fact.
    expect(cited.carried).toBe(plain.carried);
    expect(plain.total).toBeGreaterThan(10);
    expect(focused.total).toBe(plain.total);
    expect(focused.carried).toBeGreaterThanOrEqual(plain.carried);
  });

  it.skipIf(!hasFixtures)("on the shared real session", async () => {
    const loaded = loadSession(readFileSync(LARGE_SESSION, "utf8"));
    const path = loaded.tree.getBranch();
    const plain = await offlineCheck(loaded.header, path);
    const focused = await offlineCheck(loaded.header, path, FOCUS);
    const cited = await offlineCheck(loaded.header, path, undefined, true);
    console.log(
      `[fact-check] large-session ${line("offline", plain)}\n[fact-check] large-session ${line("focused", focused)}\n[fact-check] large-session ${line("cited", cited)}`,
    );
    expect(focused.carried).toBeGreaterThanOrEqual(plain.carried);
    expect(cited.carried).toBe(plain.carried);
  });
});
