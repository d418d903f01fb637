/**
 * HookRegistry: registration and the event runner (session-engine.md §12).
 * Pure: no network, disk or database access. Handlers are grouped by hook source; sources run
 * in load (first registration) order, each source's handlers in registration order, one at a
 * time (awaited). A throwing handler is reported to the error listeners and skipped, so the
 * default path always continues.
 */
import { EMPTY_HOOK_CONTEXT } from "@/lib/hooks/context";
import type {
  HookApi,
  HookContext,
  HookError,
  HookErrorListener,
  HookEvent,
  HookEventType,
  HookHandler,
  HookResult,
  HookSetup,
} from "@/lib/hooks/types";
import { errorText } from "@/lib/text/error-text";

/** Source name of handlers registered with `on()` and no source. */
export const INLINE_HOOK_SOURCE = "inline";

type AnyHandler = (event: never, ctx: HookContext) => unknown;

interface Source {
  name: string;
  handlers: Map<HookEventType, AnyHandler[]>;
}

export interface HookRegistryOptions {
  /** Context handed to handlers when `emit` gets none. */
  context?: HookContext;
}

function describeError(source: string, event: HookError["event"], err: unknown): HookError {
  const report: HookError = { source, event, error: errorText(err) };
  if (err instanceof Error && err.stack) report.stack = err.stack;
  return report;
}

export class HookRegistry {
  /** Insertion-ordered: the Map's order is the load order of the sources. */
  private readonly sources = new Map<string, Source>();
  private readonly errorListeners = new Set<HookErrorListener>();
  private context: HookContext;

  constructor(opts: HookRegistryOptions = {}) {
    this.context = opts.context ?? EMPTY_HOOK_CONTEXT;
  }

  /** Sets the default context for later `emit` calls. */
  setContext(ctx: HookContext): void {
    this.context = ctx;
  }

  /** Registers `handler` under `source` (default "inline"). Returns an unregister function. */
  on<K extends HookEventType>(type: K, handler: HookHandler<K>, source: string = INLINE_HOOK_SOURCE): () => void {
    const list = this.handlersOf(this.sourceNamed(source), type);
    const h = handler as AnyHandler;
    list.push(h);
    return () => {
      const i = list.indexOf(h);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /**
   * Runs a hook source's setup (e.g. the default export of `arbor.hooks.ts`), which registers
   * its handlers through `api.on`. The source takes its load-order slot now. If setup throws,
   * the error is reported (event "setup"), the source's handlers are removed and false is
   * returned: a half-initialised source never runs.
   */
  registerSource(name: string, setup: HookSetup): boolean {
    const source = this.sourceNamed(name);
    const registered: (() => void)[] = [];
    const api: HookApi = {
      source: name,
      on: (type, handler) => {
        const off = this.on(type, handler, name);
        registered.push(off);
        return off;
      },
    };
    try {
      setup(api);
      return true;
    } catch (err) {
      for (const off of registered) off();
      if (source.handlers.size === 0 || [...source.handlers.values()].every((l) => l.length === 0)) {
        this.sources.delete(name);
      }
      this.report(describeError(name, "setup", err));
      return false;
    }
  }

  /** Source names in load order. */
  getSources(): string[] {
    return [...this.sources.keys()];
  }

  hasHandlers(type: HookEventType): boolean {
    for (const source of this.sources.values()) {
      if ((source.handlers.get(type)?.length ?? 0) > 0) return true;
    }
    return false;
  }

  /** Subscribes to handler failures. Returns an unsubscribe function. */
  onError(listener: HookErrorListener): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /**
   * Runs every handler for `event.type` and returns the combined result (session-engine.md §12):
   * - `session_before_*`: the last truthy result wins; one with `cancel: true` is returned at
   *   once and later handlers do not run;
   * - `context`: each handler sees the messages the previous one returned, and the result
   *   carries the final messages (so a later `{}` cannot undo an earlier replacement);
   * - every other event (including `session.compacting`): the last truthy result wins.
   * Returns undefined when no handler returned anything.
   */
  async emit<K extends HookEventType>(event: HookEvent<K>, ctx: HookContext = this.context): Promise<HookResult<K> | undefined> {
    const type = event.type as HookEventType;
    const isBefore = type.startsWith("session_before_");
    let current: unknown = event;
    let last: unknown;
    for (const source of this.sources.values()) {
      // Copy: a handler may unregister itself (or another) while running.
      const handlers = [...(source.handlers.get(type) ?? [])];
      for (const handler of handlers) {
        let result: unknown;
        try {
          result = await (handler as (e: unknown, c: HookContext) => unknown)(current, ctx);
        } catch (err) {
          this.report(describeError(source.name, type, err));
          continue;
        }
        if (!result) continue;
        if (type === "context") {
          const messages = (result as { messages?: unknown }).messages;
          if (Array.isArray(messages)) {
            current = { ...(current as object), messages };
            last = { messages };
          }
          continue;
        }
        last = result;
        if (isBefore && (result as { cancel?: unknown }).cancel === true) return result as HookResult<K>;
      }
    }
    return last as HookResult<K> | undefined;
  }

  private report(error: HookError): void {
    for (const listener of this.errorListeners) {
      try {
        listener(error);
      } catch {
        // A failing error listener must not break the default path either.
      }
    }
  }

  private sourceNamed(name: string): Source {
    let source = this.sources.get(name);
    if (!source) {
      source = { name, handlers: new Map() };
      this.sources.set(name, source);
    }
    return source;
  }

  private handlersOf(source: Source, type: HookEventType): AnyHandler[] {
    let list = source.handlers.get(type);
    if (!list) {
      list = [];
      source.handlers.set(type, list);
    }
    return list;
  }
}

/** Identity helper that types a hook file's default export: `export default defineHooks((api) => …)`. */
export function defineHooks(setup: HookSetup): HookSetup {
  return setup;
}
