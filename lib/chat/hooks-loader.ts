import "server-only";
/**
 * The hook registry each SessionAgent gets (session-engine.md §12).
 *
 * Contract:
 * - The project hooks file (`arbor.hooks.ts` at the repository root, project-hooks.ts) is
 *   imported at most once per process, on first use, and only if it exists. A file that fails
 *   to load is reported ONCE with console.error, naming the file and the reason, and Arbor
 *   continues without project hooks.
 * - `createHookRegistry()` builds a fresh HookRegistry per agent and runs the file's setup on
 *   it as the source "arbor.hooks.ts", then any sources added with `addHookSource` (tests,
 *   embedders), in that order (session-engine.md §12 load order). A setup that throws is reported once per
 *   source; a handler that throws is logged with console.warn each time, and the default path
 *   continues (the registry's own semantics).
 * - `setProjectHooksFile(file)` points the loader elsewhere (tests; `null` = no file) and forgets
 *   the cached import. State lives on globalThis, shared by all route bundles.
 */
import { HookRegistry, type HookSetup } from "@/lib/hooks";
import { defaultProjectHooksPath, hooksFileExists, importHooksFile, PROJECT_HOOKS_FILE } from "./project-hooks";
import { errorText } from "@/lib/text/error-text";

interface HookSource {
  name: string;
  setup: HookSetup;
}

interface LoaderState {
  /** undefined = the default path; null = no project hooks. */
  file?: string | null;
  project?: Promise<HookSource[]>;
  extra: HookSource[];
  reported: Set<string>;
}

const KEY = Symbol.for("arbor.chat.hooks");
type Global = typeof globalThis & { [KEY]?: LoaderState };

function state(): LoaderState {
  const g = globalThis as Global;
  g[KEY] ??= { extra: [], reported: new Set() };
  return g[KEY];
}

function reportOnce(key: string, message: string): void {
  const s = state();
  if (s.reported.has(key)) return;
  s.reported.add(key);
  console.error(message);
}

async function loadProject(file: string | null): Promise<HookSource[]> {
  if (file === null || !hooksFileExists(file)) return [];
  try {
    return [{ name: PROJECT_HOOKS_FILE, setup: await importHooksFile(file) }];
  } catch (err) {
    const message = errorText(err);
    reportOnce(`load:${file}`, `arbor: project hooks disabled. ${message}. Arbor continues without them.`);
    return [];
  }
}

/** The project's hook sources (imported once). */
export function loadProjectHooks(): Promise<HookSource[]> {
  const s = state();
  s.project ??= loadProject(s.file === undefined ? defaultProjectHooksPath() : s.file);
  return s.project;
}

export function setProjectHooksFile(file: string | null | undefined): void {
  const s = state();
  s.file = file;
  s.project = undefined;
  s.reported.clear();
}

/** Registers another hook source after the project's; returns a function that removes it. */
export function addHookSource(name: string, setup: HookSetup): () => void {
  const source = { name, setup };
  state().extra.push(source);
  return () => {
    const list = state().extra;
    const i = list.indexOf(source);
    if (i >= 0) list.splice(i, 1);
  };
}

export async function createHookRegistry(): Promise<HookRegistry> {
  const registry = new HookRegistry();
  registry.onError((e) => {
    if (e.event === "setup") {
      reportOnce(`setup:${e.source}:${e.error}`, `arbor: hook source ${e.source} failed to set up and is skipped: ${e.error}`);
    } else {
      console.warn(`arbor: hook ${e.source} failed on ${e.event}: ${e.error}`);
    }
  });
  for (const source of [...(await loadProjectHooks()), ...state().extra]) registry.registerSource(source.name, source.setup);
  return registry;
}
