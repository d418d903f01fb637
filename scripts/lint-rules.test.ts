/**
 * The purity rule (conventions rule 1) is enforced by lint: engine folders may not import
 * frameworks, the database, the AI SDK or Node built-ins; lib/agent may not import lib/db or next.
 * Writes probe files into the real folders (so Biome's path overrides apply), lints them with the
 * project's Biome config in one run, and removes them.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const forbidden = [
  `import { NextResponse } from "next/server";`,
  `import { useState } from "react";`,
  `import { PrismaPg } from "@prisma/adapter-pg";`,
  `import { streamText } from "ai";`,
  `import { createOpenAI } from "@ai-sdk/openai";`,
  `import { getDb } from "@/lib/db/client";`,
  `import { readFileSync } from "node:fs";`,
];
const engineFolders = ["lib/session", "lib/compaction", "lib/hooks", "lib/settings"];

interface Probe {
  path: string;
  source: string;
}
const probes: Probe[] = [];
const tag = `zz-lint-probe-${process.pid}`;
function probe(folder: string, name: string, source: string): string {
  const path = `${folder}/${tag}-${name}.ts`;
  probes.push({ path, source });
  return path;
}

const cases = engineFolders.flatMap((folder) =>
  forbidden.map((line, i) => ({ folder, line, path: probe(folder, `f${i}`, `${line}\nexport const used = [${/\{ (\w+) \}/.exec(line)?.[1]}];\n`) })),
);
const allowedEngine = probe("lib/compaction", "ok", `import { z } from "zod";\nimport type { SessionEntry } from "@/lib/session/types";\nexport const s = z.string();\nexport type E = SessionEntry;\n`);
const agentDb = probe("lib/agent", "db", `import { getDb } from "@/lib/db/client";\nexport const x = getDb;\n`);
const agentNext = probe("lib/agent", "next", `import { redirect } from "next/navigation";\nexport const x = redirect;\n`);
const agentEngine = probe("lib/agent", "ok", `import type { SessionEntry } from "@/lib/session/types";\nexport type E = SessionEntry;\n`);

let byFile = new Map<string, string[]>();

beforeAll(() => {
  for (const p of probes) writeFileSync(p.path, p.source);
  try {
    const r = spawnSync("npx", ["--no-install", "biome", "lint", "--reporter=json", ...probes.map((p) => p.path)], { encoding: "utf8" });
    const report = JSON.parse(r.stdout) as { diagnostics: { category: string; message: string; location: { path: string } }[] };
    byFile = new Map();
    for (const d of report.diagnostics) {
      if (d.category !== "lint/style/noRestrictedImports") continue;
      byFile.set(d.location.path, [...(byFile.get(d.location.path) ?? []), d.message]);
    }
  } finally {
    for (const p of probes) rmSync(p.path, { force: true });
  }
});
afterAll(() => {
  for (const p of probes) rmSync(p.path, { force: true });
});

describe("engine purity lint rule (conventions rule 1)", () => {
  for (const c of cases) {
    it(`rejects \`${c.line}\` in ${c.folder}`, () => {
      expect(byFile.get(c.path)?.[0]).toContain("The engine is pure");
    });
  }
  it("accepts zod and engine-internal imports in the engine", () => {
    expect(byFile.get(allowedEngine)).toBeUndefined();
  });
  it("rejects lib/db and next in lib/agent, allows the engine there", () => {
    expect(byFile.get(agentDb)?.[0]).toContain("lib/agent receives the store");
    expect(byFile.get(agentNext)?.[0]).toContain("lib/agent receives the store");
    expect(byFile.get(agentEngine)).toBeUndefined();
  });
});
