/**
 * The dependency rules are one declarative set, biome.json's `noRestrictedImports` overrides
 * (conventions rules 1 and 4; `npm run check` runs them): the engine folders and lib/types import
 * only one another and zod (so they stay pure transitively), lib/chat-protocol only what is
 * browser-safe, components never a route or lib/db, database drivers only lib/db and
 * lib/postgres (pg also lib/runs), and code outside a data folder only its entry.
 * This proves each rule fires: probe files that break it (and some that keep it) are written
 * into the real folders, so the per-folder overrides apply, linted in one Biome run, and removed.
 * What Biome cannot state is checked below it: every module of lib/chat imports `server-only`.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Probe {
  folder: string;
  line: string;
  path: string;
}
const probes: Probe[] = [];
const tag = `zz-lint-probe-${process.pid}`;

function probe(folder: string, line: string): Probe {
  const p = { folder, line, path: `${folder}/${tag}-${probes.length}.ts` };
  probes.push(p);
  return p;
}

const ENGINE = ["lib/session", "lib/compaction", "lib/hooks", "lib/settings", "lib/formats", "lib/types"];
/** One line each: a framework, the database (door and file), a driver, the AI SDK, Node, and a non-engine lib module (the transitive case). */
const IMPURE = [
  `import { NextResponse } from "next/server";`,
  `import { useState } from "react";`,
  `import { PrismaPg } from "@prisma/adapter-pg";`,
  `import pg from "pg";`,
  `import { streamText } from "ai";`,
  `import { createOpenAI } from "@ai-sdk/openai";`,
  `import { getSessionMeta } from "@/lib/db";`,
  `import { getDb } from "@/lib/db/client";`,
  `import { readFileSync } from "node:fs";`,
  `import { contentHash } from "@/lib/inspector/canonical";`,
];

/** [folder, import line, the message's start when it is refused (undefined: allowed)]. */
const CASES: [string, string, string | undefined][] = [
  ...ENGINE.flatMap((folder) => IMPURE.map((line): [string, string, string] => [folder, line, "The engine is pure"])),
  ["lib/compaction", `import { z } from "zod";`, undefined],
  ["lib/compaction", `import type { SessionEntry } from "@/lib/session/types";`, undefined],
  ["lib/formats", `import type { SessionMeta } from "@/lib/types/session";`, undefined],
  ["lib/agent", `import { getSessionMeta } from "@/lib/db";`, "lib/agent receives the store"],
  ["lib/agent", `import { redirect } from "next/navigation";`, "lib/agent receives the store"],
  ["lib/agent", `import type { SessionEntry } from "@/lib/session/types";`, undefined],
  ["components", `import { getSessionMeta } from "@/lib/db";`, "Components never import lib/db"],
  ["components", `import { getDb } from "@/lib/db/client";`, "Components never import lib/db"],
  ["components", `import { GET } from "@/app/api/sessions/route";`, "Components never import a route"],
  ["components", `import { createSession } from "@/app/actions";`, undefined],
  ["components", `import type { SessionMeta } from "@/lib/types/session";`, undefined],
  ["lib/sync", `import pg from "pg";`, "Database drivers"],
  ["lib/sync", `import { PrismaClient } from "@/generated/prisma/client";`, "Database drivers"],
  ["lib/sync", `import { getDb } from "@/lib/db/client";`, "Import a data folder through its entry"],
  ["lib/sync", `import { migrate } from "@/lib/postgres/migrate";`, "Import a data folder through its entry"],
  ["lib/sync", `import { getSessionMeta } from "@/lib/db";`, undefined],
  ["lib/db", `import pg from "pg";`, undefined],
  ["lib/db", `import { runTurn } from "@/lib/chat/turn";`, "lib/db is the bottom of the app"],
  ["lib/runs", `import pg from "pg";`, undefined],
  ["lib/runs", `import { Prisma } from "@prisma/client";`, "lib/runs holds one pg connection"],
  ["lib/runs", `import { getDb } from "@/lib/db/client";`, "lib/runs sits on @/lib/db's entry"],
  ["lib/chat-protocol", `import "server-only";`, "lib/chat-protocol is browser-safe"],
  ["lib/chat-protocol", `import { runTurn } from "@/lib/chat/turn";`, "lib/chat-protocol is browser-safe"],
  ["lib/chat-protocol", `import type { UIMessage } from "ai";`, undefined],
];
const probed = CASES.map(([folder, line, refusedWith]) => ({ ...probe(folder, line), refusedWith }));

let byFile = new Map<string, string[]>();
let status: number | null = null;

beforeAll(() => {
  for (const p of probes) writeFileSync(p.path, `${p.line}\nexport {};\n`);
  try {
    const r = spawnSync("npx", ["--no-install", "biome", "lint", "--reporter=json", ...probes.map((p) => p.path)], { encoding: "utf8" });
    status = r.status;
    const report = JSON.parse(r.stdout) as { diagnostics: { category: string; message: string; location: { path: string } }[] };
    byFile = new Map();
    for (const d of report.diagnostics) {
      if (d.category !== "lint/style/noRestrictedImports") continue;
      byFile.set(d.location.path, [...(byFile.get(d.location.path) ?? []), d.message]);
    }
  } finally {
    for (const p of probes) rmSync(p.path, { force: true });
  }
}, 60_000);
afterAll(() => {
  for (const p of probes) rmSync(p.path, { force: true });
});

describe("the dependency rules (biome.json)", () => {
  it("fail the lint run, and with it `npm run check`, when one is broken", () => {
    expect(status).not.toBe(0);
  });
  for (const p of probed) {
    it(`${p.refusedWith ? "refuses" : "allows"} \`${p.line}\` in ${p.folder}`, () => {
      if (p.refusedWith) expect(byFile.get(p.path)?.[0]).toContain(p.refusedWith);
      else expect(byFile.get(p.path)).toBeUndefined();
    });
  }
});

describe("lib/chat is server code", () => {
  const root = path.resolve(import.meta.dirname, "..");
  const modules = readdirSync(path.join(root, "lib/chat")).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  it.each(modules)("lib/chat/%s imports server-only first", (file) => {
    expect(readFileSync(path.join(root, "lib/chat", file), "utf8").split("\n")[0]).toBe('import "server-only";');
  });
});
