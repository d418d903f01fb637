import "server-only";
/**
 * Imports a project hooks file at runtime, in Node, without the bundler seeing it.
 *
 * A project registers hooks (session-engine.md §12) in ONE optional file at the repository root,
 * `arbor.hooks.ts`, exporting `default defineHooks((api) => { api.on(…) })`. A bundler cannot
 * import a file that may not exist at build time, so the import happens at runtime and is
 * hidden from webpack/turbopack (`webpackIgnore` / `turbopackIgnore`):
 * - a `.ts` file goes through tsx's scoped loader (`tsImport`, tsx is a dependency), which
 *   strips the types and resolves the tsconfig `@/…` paths, on any supported Node;
 * - a `.js` / `.mjs` file is imported natively.
 * `importHooksFile` throws an Error that names the file and what is wrong; the caller
 * (hooks-loader.ts) reports it once and carries on without hooks.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { HookSetup } from "@/lib/hooks";
import { errorText } from "@/lib/text/error-text";

export const PROJECT_HOOKS_FILE = "arbor.hooks.ts";

/** `<cwd>/arbor.hooks.ts` (the repository root when the app runs). */
export function defaultProjectHooksPath(): string {
  return path.join(process.cwd(), PROJECT_HOOKS_FILE);
}

export function hooksFileExists(file: string): boolean {
  return existsSync(file);
}

/** The default export, also when a CommonJS-compiled module wraps it as `default.default`. */
function defaultExport(mod: unknown): unknown {
  let value = (mod as { default?: unknown } | null)?.default;
  if (value && typeof value === "object" && "default" in value) value = (value as { default: unknown }).default;
  return value;
}

type TsImport = (specifier: string, options: { parentURL: string }) => Promise<unknown>;

async function importModule(file: string): Promise<unknown> {
  const url = pathToFileURL(file).href;
  if (/\.[cm]?tsx?$/i.test(file)) {
    const api = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "tsx/esm/api")) as { tsImport: TsImport };
    return api.tsImport(url, { parentURL: pathToFileURL(`${process.cwd()}${path.sep}`).href });
  }
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url);
}

/** Imports `file` and returns its hook setup function. */
export async function importHooksFile(file: string): Promise<HookSetup> {
  let mod: unknown;
  try {
    mod = await importModule(file);
  } catch (err) {
    const message = errorText(err);
    throw new Error(`Could not load ${file}: ${message}`, { cause: err });
  }
  const setup = defaultExport(mod);
  if (typeof setup !== "function") {
    throw new Error(`${file} must export default defineHooks((api) => { … }) (its default export is ${typeof setup})`);
  }
  return setup as HookSetup;
}
