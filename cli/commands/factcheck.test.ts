/** `factcheck` (docs/engine.md "Arbor extensions around compaction"): default entry, --entry, --json, and one-line errors with exit code 2. */
import { beforeAll, describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "@/test/cli-helpers";
import { generateSessionJsonl } from "@/test/generators/session";

const files: Record<string, string> = {};

beforeAll(() => {
  const t = tempDir();
  files.compacted = t.write("compacted.jsonl", generateSessionJsonl({ seed: 13, entries: 600, compactions: true }));
  files.plain = t.write("plain.jsonl", generateSessionJsonl({ seed: 14, entries: 50 }));
});

describe("factcheck", () => {
  it("checks the last compaction on the branch by default, and --entry picks another", async () => {
    const r = await runInProcess(["factcheck", files.compacted!, "--json"]);
    expect(r.code, r.err).toBe(0);
    const last = JSON.parse(r.out);
    expect(last.score).toBe(`${last.carried} of ${last.total} facts carried`);
    expect(last.total).toBeGreaterThan(0);
    expect(last.facts[0]).toMatchObject({ kind: expect.any(String), entryId: expect.any(String), carried: expect.any(Boolean) });

    const text = await runInProcess(["factcheck", files.compacted!, "--entry", last.compactionId]);
    expect(text.code).toBe(0);
    expect(text.out).toContain(last.score);
    expect(text.out).toMatch(/^Files: \d+ of \d+$/m);
    expect(text.out).toMatch(/^ {2}[+-] .+ ← [0-9a-f]{8} \(index \d+\)$/m);
  });

  it("fails with one line and exit 2 for a missing compaction, an unknown or wrong --entry", async () => {
    const none = await runInProcess(["factcheck", files.plain!]);
    expect([none.code, none.err]).toEqual([2, `error: ${files.plain}: no compaction on the current branch; pass --entry COMPACTION_ID\n`]);
    const unknown = await runInProcess(["factcheck", files.plain!, "--entry", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no entry with id "nope" (--entry)');
    const first = JSON.parse((await runInProcess(["tree", files.plain!, "--json"])).out);
    const wrong = await runInProcess(["factcheck", files.plain!, "--entry", first.rows[0].id]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/is a \w+ entry, not a compaction \(--entry\)/);
    expect((await runInProcess(["factcheck", "--help"])).out.split("\n")[0]).toBe("factcheck FILE [--entry COMPACTION_ID] [--json]");
  });
});
