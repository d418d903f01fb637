/** Fact extraction on generated spans (docs/engine.md "Arbor extensions around compaction"): paths, identifiers, errors, instructions, URLs, numbers, TODO lines. */
import { describe, expect, it } from "vitest";
import { extractFacts } from "@/lib/compaction/fact-extract";
import { assistant, bash, call, ent, linked, msg, toolResult, user } from "@/test/compaction-helpers";
import { generateSession } from "@/test/generators/session";

const CWD = "/home/dev/app";

function span() {
  return linked(
    msg("u1", user("Please fix the retry loop in `runTurn`. Don't touch lib/db/client.ts. Keep timeouts under 200 ms.\nWhat do you think?")),
    msg("a1", assistant("Reading it. See https://example.com/docs/retry.", { calls: [call("c1", "read", { path: `${CWD}/lib/agent/turn.ts` })] })),
    msg("t1", toolResult("c1", "export function runTurn() { /* TODO: in a file, not a fact */ }", { toolName: "read" })),
    msg("a2", assistant("", { calls: [call("c2", "edit", { path: "./lib/agent/turn.ts" }), call("c3", "bash", { command: "npm test" })] })),
    msg("t2", { ...toolResult("c3", "Error: expected 3 retries, got 4\n    at turn.test.ts:12"), isError: true }),
    msg("b1", bash("npx tsc --noEmit", "lib/agent/turn.ts(4,1): error TS2304: Cannot find name 'sleep'.", { exitCode: 2 })),
    msg("a3", assistant("Fixed.\n```ts\nexport function backoff(ms: number) {}\n```\nNext: run the full suite.\n- remaining: document `backoff`")),
    msg("u2", { ...user("Continue if you have next steps."), synthetic: true }),
    ent("label", "l1", { targetId: "a1", label: "x" }),
  );
}

describe("extractFacts", () => {
  const facts = extractFacts(span(), { cwd: CWD });
  const of = (kind: string) => facts.filter((f) => f.kind === kind);

  it("lists file paths relative to cwd, once, modified when edited after a read", () => {
    expect(of("file")).toEqual([{ kind: "file", text: "lib/agent/turn.ts", key: "lib/agent/turn.ts", entryId: "a1", detail: "modified" }]);
  });

  it("takes the first line of failed tool results and bash runs as errors", () => {
    expect(of("error").map((f) => [f.text, f.entryId])).toEqual([
      ["Error: expected 3 retries, got 4", "t2"],
      ["lib/agent/turn.ts(4,1): error TS2304: Cannot find name 'sleep'.", "b1"],
    ]);
  });

  it("takes imperative sentences of user messages as instructions, not questions or synthetic prompts", () => {
    expect(of("instruction").map((f) => f.text)).toEqual([
      "Please fix the retry loop in `runTurn`.",
      "Don't touch lib/db/client.ts.",
      "Keep timeouts under 200 ms.",
    ]);
    expect(of("instruction").every((f) => f.entryId === "u1")).toBe(true);
  });

  it("takes code spans and names declared in fenced code as identifiers", () => {
    expect(of("identifier").map((f) => [f.text, f.entryId])).toEqual([
      ["runTurn", "u1"],
      ["backoff", "a3"],
    ]);
  });

  it("takes URLs without trailing punctuation and numbers with units", () => {
    expect(of("url").map((f) => f.text)).toEqual(["https://example.com/docs/retry"]);
    expect(of("number").map((f) => f.text)).toEqual(["200 ms"]);
  });

  it("takes every TODO / next / remaining / must line of user and assistant text, not tool output", () => {
    expect(of("todo").map((f) => f.text)).toEqual(["Next: run the full suite.", "remaining: document `backoff`"]);
  });

  it("orders facts by kind, then by span order", () => {
    expect([...new Set(facts.map((f) => f.kind))]).toEqual(["file", "error", "instruction", "identifier", "url", "number", "todo"]);
  });

  it("finds the files of a generated session's tool calls, each pointing at an entry of the span", () => {
    const g = generateSession({ seed: 5, entries: 300 });
    const facts = extractFacts(g.entries, { cwd: g.header.cwd });
    const ids = new Set(g.entries.map((e) => e.id));
    expect(facts.filter((f) => f.kind === "file").length).toBeGreaterThan(3);
    expect(facts.filter((f) => f.kind === "instruction").length).toBeGreaterThan(3);
    expect(facts.every((f) => ids.has(f.entryId))).toBe(true);
    expect(new Set(facts.map((f) => f.key)).size).toBe(facts.length);
  });
});
