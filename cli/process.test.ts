/**
 * The CLI as a user runs it: a child process (`node --import tsx cli/main.ts …`). Pins exit
 * codes, that stderr errors are one line naming the file, and that with --json stdout holds
 * exactly one JSON document even when malformed lines are reported. The runs start in
 * parallel (each process takes ~0.5 s to boot).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runProcess, tempDir } from "@/test/cli-helpers";
import { generateSessionJsonl } from "@/test/generators/session";
import { hasFixtures, LARGE_SESSION } from "@/test/fixtures";

let runs: Record<string, CliRun> = {};
let files: Record<string, string> = {};

beforeAll(async () => {
  const t = tempDir();
  const lines = generateSessionJsonl({ seed: 21, entries: 120, branches: 1 }).split("\n");
  lines.splice(2, 0, "{not json");
  files = {
    session: t.write("session.jsonl", lines.join("\n")),
    notSession: t.write("notes.txt", "just some text\n"),
    missing: `${t.dir}/nope.jsonl`,
  };
  const plan: [string, string[]][] = [
    ["planJson", ["plan", files.session!, "--json"]],
    ["tree", ["tree", files.session!]],
    ["missing", ["context", files.missing!, "--json"]],
    ["notSession", ["tree", files.notSession!]],
    ["unknownOption", ["prune", files.session!, "--fast"]],
  ];
  if (hasFixtures) plan.push(["fixtureCut", ["cut-point", LARGE_SESSION, "--keep-recent-tokens", "20000", "--json"]]);
  const results = await Promise.all(plan.map(([, argv]) => runProcess(argv)));
  runs = Object.fromEntries(plan.map(([name], i) => [name, results[i]!]));
}, 60_000);

describe("CLI as a child process", () => {
  it("--json: stdout is exactly one JSON document; skipped lines go to stderr", () => {
    const r = runs.planJson!;
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc).toHaveProperty("firstKeptEntryId");
    expect(r.err).toMatch(new RegExp(`^${files.session}:3: invalid JSON`));
  });

  it("tree prints rows with the active path marked and a footer", () => {
    const r = runs.tree!;
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("@ "))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith("* "))).toBe(true);
    expect(lines.at(-1)).toMatch(/^\(\d+\/\d+\)$/);
  });

  it.each([
    ["missing", "nope.jsonl: no such file"],
    ["notSession", "notes.txt: not a session file"],
    ["unknownOption", "unknown option --fast"],
  ])("%s: exit 2 with one error line on stderr and nothing on stdout", (name, message) => {
    const r = runs[name]!;
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    const errLines = r.err.trimEnd().split("\n");
    expect(errLines).toHaveLength(1);
    expect(errLines[0]).toContain(message);
  });

  it.skipIf(!hasFixtures)("cut-point on the fixture prints one JSON document", () => {
    const r = runs.fixtureCut!;
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.out)).sort()).toEqual(["firstKeptEntryIndex", "isSplitTurn", "turnStartIndex"]);
    expect(r.err).toBe("");
  });
});
