/** Fact check of a compaction (docs/engine.md "Arbor extensions around compaction"): the span, normalised matching, the score. */
import { describe, expect, it } from "vitest";
import { checkFacts, factCheckCompaction, scoreText, summarizedSpan } from "@/lib/compaction/fact-check";
import type { Fact } from "@/lib/compaction/fact-extract";
import { assistant, call, ent, linked, msg, toolResult, user } from "@/test/compaction-helpers";

const CWD = "/home/dev/app";
const fact = (kind: Fact["kind"], key: string): Fact => ({ kind, text: key, key, entryId: "x" });

describe("summarizedSpan", () => {
  it("runs from after the previous compaction up to the first kept entry", () => {
    const path = linked(
      msg("u0", user("old")),
      ent("compaction", "c0", { summary: "S0", firstKeptEntryId: "u0", tokensBefore: 1 }),
      msg("u1", user("one")),
      msg("a1", assistant("two")),
      msg("u2", user("kept")),
      ent("compaction", "c1", { summary: "S1", firstKeptEntryId: "u2", tokensBefore: 1 }),
    );
    expect(summarizedSpan(path, 5).map((e) => e.id)).toEqual(["u1", "a1"]);
    expect(summarizedSpan(path, 1).map((e) => e.id)).toEqual([]);
    expect(summarizedSpan(path, 2)).toEqual([]);
  });

  it("runs up to the compaction when the first kept entry is not before it", () => {
    const path = linked(msg("u1", user("one")), ent("compaction", "c1", { summary: "S", firstKeptEntryId: "zz", tokensBefore: 1 }));
    expect(summarizedSpan(path, 1).map((e) => e.id)).toEqual(["u1"]);
  });
});

describe("checkFacts matching", () => {
  it("ignores case, quoting and whitespace, and makes absolute paths relative to cwd", () => {
    const [a, b, c] = checkFacts(
      [fact("identifier", "runturn"), fact("file", "lib/agent/turn.ts"), fact("url", "https://example.com/a")],
      `Renamed "RunTurn" in ${CWD}/lib/agent/turn.ts; see https://EXAMPLE.com/a.`,
      { cwd: CWD },
    );
    expect([a?.carried, b?.carried, c?.carried]).toEqual([true, true, true]);
  });

  it("matches whole tokens only", () => {
    const facts = checkFacts([fact("number", "5 ms"), fact("file", "a.ts"), fact("identifier", "run")], "took 15 ms in a.tsx, rerun");
    expect(facts.map((f) => f.carried)).toEqual([false, false, false]);
    expect(checkFacts([fact("number", "5 ms")], "took 5ms")[0]?.carried).toBe(true);
  });

  it("matches sentences by their content words", () => {
    const instruction = fact("instruction", "don t touch lib/db/client.ts.");
    expect(checkFacts([instruction], "- Constraint: lib/db/client.ts must stay untouched (don't touch it)")[0]?.carried).toBe(true);
    expect(checkFacts([instruction], "- Constraint: leave the database alone")[0]?.carried).toBe(false);
  });

  it("flags files carried only by the file tags", () => {
    const [f] = checkFacts([fact("file", "src/a.ts")], "## Goal\nx\n\n<read-files>\nsrc/a.ts\n</read-files>");
    expect(f).toMatchObject({ carried: true, inFileTagsOnly: true });
  });
});

describe("factCheckCompaction", () => {
  const path = linked(
    msg("u1", user("Rename `loadConfig` to `readConfig`. Never edit generated/.")),
    msg("a1", assistant("", { calls: [call("c1", "edit", { path: `${CWD}/lib/config.ts` })] })),
    msg("t1", { ...toolResult("c1", "ENOENT: no such file lib/config.ts"), isError: true }),
    msg("a2", assistant("Created it instead. Next: update the callers.")),
    msg("u2", user("kept")),
    ent("compaction", "c1", {
      summary: "## Goal\nRename `loadConfig` to readConfig.\n\n<modified-files>\nlib/config.ts\n</modified-files>",
      firstKeptEntryId: "u2",
      tokensBefore: 10,
    }),
    msg("a3", assistant("after")),
  );

  it("scores what the summary carried, per kind, with each fact's source entry", () => {
    const check = factCheckCompaction(path, "c1", { cwd: CWD })!;
    expect(check.spanEntries).toBe(4);
    expect(check.facts.map((f) => [f.kind, f.text, f.entryId, f.carried])).toEqual([
      ["file", "lib/config.ts", "a1", true],
      ["error", "ENOENT: no such file lib/config.ts", "t1", false],
      ["instruction", "Rename `loadConfig` to `readConfig`.", "u1", true],
      ["instruction", "Never edit generated/.", "u1", false],
      ["identifier", "loadConfig", "u1", true],
      ["identifier", "readConfig", "u1", true],
      ["todo", "Created it instead. Next: update the callers.", "a2", false],
    ]);
    expect(scoreText(check)).toBe("4 of 7 facts carried");
    expect(check.byKind.map((k) => `${k.label} ${k.carried}/${k.total}`)).toEqual([
      "Files 1/1",
      "Errors 0/1",
      "Instructions 1/2",
      "Identifiers 2/2",
      "TODO and next steps 0/1",
    ]);
  });

  it("checks another summary against the same span, and refuses non-compactions", () => {
    const other = factCheckCompaction(path, "c1", { cwd: CWD, summary: "ENOENT: no such file lib/config.ts. Never edit generated/. Created it instead; next, update the callers." })!;
    expect(other.facts.filter((f) => f.carried).map((f) => f.kind)).toEqual(["file", "error", "instruction", "todo"]);
    expect(factCheckCompaction(path, "u1")).toBeUndefined();
    expect(factCheckCompaction(path, "nope")).toBeUndefined();
  });
});
