/**
 * The project hooks loader: a real file imported at runtime (a .ts file through tsx, a .mjs
 * file natively), loaded once per process, load errors reported once, and Arbor carrying on.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { HookContext } from "@/lib/hooks";
import { addHookSource, createHookRegistry, loadProjectHooks, setProjectHooksFile } from "./hooks-loader";
import { importHooksFile } from "./project-hooks";

let dir: string;
const g = globalThis as typeof globalThis & { __loaderLog?: string[]; __loaderImports?: number };
const ctx = {} as HookContext;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "arbor-loader-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => {
  setProjectHooksFile(undefined);
  vi.restoreAllMocks();
  g.__loaderLog = [];
});

async function file(name: string, text: string): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, text);
  return p;
}

const TS_HOOKS = `import { defineHooks } from "@/lib/hooks";
const g = globalThis as typeof globalThis & { __loaderLog?: string[]; __loaderImports?: number };
g.__loaderImports = (g.__loaderImports ?? 0) + 1;
export default defineHooks((api) => {
  api.on("turn_start", (e) => { (g.__loaderLog ??= []).push("ts:" + e.turnIndex); });
});
`;

describe("project hooks file", () => {
  it("imports a TypeScript hooks file (with @/ imports) once, and registers it first", async () => {
    setProjectHooksFile(await file("arbor.hooks.ts", TS_HOOKS));
    const remove = addHookSource("extra", (api) => {
      api.on("turn_start", () => {
        g.__loaderLog?.push("extra");
      });
    });
    try {
      const a = await createHookRegistry();
      const b = await createHookRegistry();
      expect(a.getSources()).toEqual(["arbor.hooks.ts", "extra"]);
      await a.emit({ type: "turn_start", turnIndex: 0, timestamp: 1 }, ctx);
      await b.emit({ type: "turn_start", turnIndex: 1, timestamp: 1 }, ctx);
      expect(g.__loaderLog).toEqual(["ts:0", "extra", "ts:1", "extra"]);
      expect(g.__loaderImports).toBe(1);
    } finally {
      remove();
    }
  });

  it("imports an ES module hooks file natively", async () => {
    const p = await file("hooks.mjs", `export default (api) => { api.on("turn_end", () => { globalThis.__loaderLog.push("mjs"); }); };\n`);
    const setup = await importHooksFile(p);
    expect(typeof setup).toBe("function");
  });

  it("no file: no hooks", async () => {
    setProjectHooksFile(path.join(dir, "missing.hooks.ts"));
    expect(await loadProjectHooks()).toEqual([]);
    expect((await createHookRegistry()).getSources()).toEqual([]);
  });

  it("a file that fails to load is reported once, clearly, and Arbor continues without it", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    setProjectHooksFile(await file("broken.hooks.ts", "export default defineHooks((api) => { api.on( ;\n"));
    expect((await createHookRegistry()).getSources()).toEqual([]);
    expect((await createHookRegistry()).getSources()).toEqual([]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/^arbor: project hooks disabled\. Could not load .*broken\.hooks\.ts: /);
  });

  it("a file without a default export names what is wrong", async () => {
    const p = await file("nodefault.hooks.ts", "export const x = 1;\n");
    await expect(importHooksFile(p)).rejects.toThrow(/must export default defineHooks\(\(api\) => \{ … \}\)/);
  });

  it("a setup that throws is skipped and reported once; other sources still run", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    setProjectHooksFile(await file("throws.hooks.ts", `export default () => { throw new Error("bad setup"); };\n`));
    expect((await createHookRegistry()).getSources()).toEqual([]);
    await createHookRegistry();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toBe("arbor: hook source arbor.hooks.ts failed to set up and is skipped: bad setup");
  });
});
