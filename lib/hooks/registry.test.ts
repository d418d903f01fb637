import { describe, expect, it } from "vitest";
import { createHookContext, EMPTY_HOOK_CONTEXT } from "@/lib/hooks/context";
import { defineHooks, HookRegistry, INLINE_HOOK_SOURCE } from "@/lib/hooks/registry";
import type { HookError, HookEvent, TreePreparation } from "@/lib/hooks/types";
import { assistantEntry, buildTree, chain, labelEntry, userEntry } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

const preparation: TreePreparation = {
  targetId: "t",
  oldLeafId: "o",
  commonAncestorId: null,
  entriesToSummarize: [],
  userWantsSummary: true,
};
const beforeTree = (): HookEvent<"session_before_tree"> => ({
  type: "session_before_tree",
  preparation,
  signal: new AbortController().signal,
});

describe("HookRegistry order (session-engine.md §12 runner semantics)", () => {
  it("two hook sources on before and after events run hook1-before, hook2-before, hook1-after, hook2-after", async () => {
    const reg = new HookRegistry();
    const calls: string[] = [];
    for (const name of ["hook1", "hook2"]) {
      reg.registerSource(name, (api) => {
        api.on("session_before_compact", () => {
          calls.push(`${name}-before`);
        });
        api.on("session_compact", () => {
          calls.push(`${name}-after`);
        });
      });
    }
    const signal = new AbortController().signal;
    await reg.emit({
      type: "session_before_compact",
      preparation: {} as never,
      branchEntries: [],
      signal,
    });
    await reg.emit({ type: "session_compact", compactionEntry: {} as never, fromExtension: false });
    expect(calls).toEqual(["hook1-before", "hook2-before", "hook1-after", "hook2-after"]);
  });

  it("groups handlers by source in load order, then registration order within a source", async () => {
    const reg = new HookRegistry();
    const calls: string[] = [];
    reg.on("turn_start", () => void calls.push("a1"), "a");
    reg.on("turn_start", () => void calls.push("b1"), "b");
    reg.on("turn_start", () => void calls.push("a2"), "a");
    await reg.emit({ type: "turn_start", turnIndex: 0, timestamp: 1 });
    expect(calls).toEqual(["a1", "a2", "b1"]);
    expect(reg.getSources()).toEqual(["a", "b"]);
  });

  it("runs handlers one at a time, awaiting each", async () => {
    const reg = new HookRegistry();
    const calls: string[] = [];
    reg.on("turn_start", async () => {
      calls.push("slow:start");
      await new Promise((r) => setTimeout(r, 20));
      calls.push("slow:end");
    });
    reg.on("turn_start", () => void calls.push("fast"));
    await reg.emit({ type: "turn_start", turnIndex: 0, timestamp: 1 });
    expect(calls).toEqual(["slow:start", "slow:end", "fast"]);
  });

  it("uses the inline source for handlers registered without one, and on() returns an unregister", async () => {
    const reg = new HookRegistry();
    let n = 0;
    const off = reg.on("turn_start", () => void n++);
    expect(reg.getSources()).toEqual([INLINE_HOOK_SOURCE]);
    expect(reg.hasHandlers("turn_start")).toBe(true);
    off();
    expect(reg.hasHandlers("turn_start")).toBe(false);
    await reg.emit({ type: "turn_start", turnIndex: 0, timestamp: 1 });
    expect(n).toBe(0);
  });
});

describe("HookRegistry results (session-engine.md §12)", () => {
  it("session_before_*: the last truthy result wins", async () => {
    const reg = new HookRegistry();
    reg.on("session_before_tree", () => ({ summary: { summary: "first" } }));
    reg.on("session_before_tree", () => ({ summary: { summary: "second", details: { n: 2 } } }));
    reg.on("session_before_tree", () => undefined);
    expect(await reg.emit(beforeTree())).toEqual({ summary: { summary: "second", details: { n: 2 } } });
  });

  it("session_before_*: cancel returns at once and later handlers do not run", async () => {
    const reg = new HookRegistry();
    const calls: string[] = [];
    reg.on("session_before_tree", () => {
      calls.push("1");
      return { summary: { summary: "x" } };
    });
    reg.on("session_before_tree", () => {
      calls.push("2");
      return { cancel: true };
    });
    reg.on("session_before_tree", () => {
      calls.push("3");
      return { summary: { summary: "late" } };
    });
    expect(await reg.emit(beforeTree())).toEqual({ cancel: true });
    expect(calls).toEqual(["1", "2"]);
  });

  it("cancel: false does not stop the run", async () => {
    const reg = new HookRegistry();
    reg.on("session_before_branch", () => ({ cancel: false }));
    reg.on("session_before_branch", () => ({ skipConversationRestore: true }));
    expect(await reg.emit({ type: "session_before_branch", entryId: "e" })).toEqual({ skipConversationRestore: true });
  });

  it("session.compacting: the last truthy result wins", async () => {
    const reg = new HookRegistry();
    reg.on("session.compacting", () => ({ context: ["a"] }));
    reg.on("session.compacting", () => ({ prompt: "P" }));
    reg.on("session.compacting", () => null as never);
    expect(await reg.emit({ type: "session.compacting", sessionId: "s", messages: [] })).toEqual({ prompt: "P" });
  });

  it("returns undefined when there are no handlers or no results", async () => {
    const reg = new HookRegistry();
    expect(await reg.emit(beforeTree())).toBeUndefined();
    reg.on("session_before_tree", () => {});
    expect(await reg.emit(beforeTree())).toBeUndefined();
  });

  it("context: each handler sees the previous replacement and the final messages are returned", async () => {
    const reg = new HookRegistry();
    const seen: number[] = [];
    const m = (n: number) => ({ role: "user" as const, content: `m${n}`, timestamp: n });
    reg.on("context", (e) => {
      seen.push(e.messages.length);
      return { messages: [...e.messages, m(2)] };
    });
    reg.on("context", (e) => {
      seen.push(e.messages.length);
      return {};
    });
    const r = await reg.emit({ type: "context", messages: [m(1)] });
    expect(seen).toEqual([1, 2]);
    expect(r?.messages?.map((x) => x.timestamp)).toEqual([1, 2]);
  });
});

describe("HookRegistry errors (session-engine.md §12)", () => {
  it("a throwing handler is reported with source, event, error and stack; the others still run", async () => {
    const reg = new HookRegistry();
    const errors: HookError[] = [];
    reg.onError((e) => errors.push(e));
    reg.registerSource("broken", (api) => {
      api.on("session_before_tree", () => {
        throw new Error("boom");
      });
    });
    reg.on("session_before_tree", () => ({ summary: { summary: "ok" } }), "good");
    expect(await reg.emit(beforeTree())).toEqual({ summary: { summary: "ok" } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ source: "broken", event: "session_before_tree", error: "boom" });
    expect(errors[0]?.stack).toContain("boom");
  });

  it("a throwing handler alone leaves the default path (undefined result)", async () => {
    const reg = new HookRegistry();
    reg.on("session_before_compact", async () => {
      throw "not an Error";
    });
    const errors: HookError[] = [];
    reg.onError((e) => errors.push(e));
    const r = await reg.emit({ type: "session_before_compact", preparation: {} as never, branchEntries: [], signal: new AbortController().signal });
    expect(r).toBeUndefined();
    expect(errors).toEqual([{ source: INLINE_HOOK_SOURCE, event: "session_before_compact", error: "not an Error" }]);
  });

  it("a throwing error listener does not break the run; unsubscribed listeners are not called", async () => {
    const reg = new HookRegistry();
    let calls = 0;
    reg.onError(() => {
      throw new Error("listener");
    });
    const off = reg.onError(() => void calls++);
    off();
    reg.on("turn_start", () => {
      throw new Error("x");
    });
    await expect(reg.emit({ type: "turn_start", turnIndex: 1, timestamp: 1 })).resolves.toBeUndefined();
    expect(calls).toBe(0);
  });

  it("a source whose setup throws is reported as setup and none of its handlers run", async () => {
    const reg = new HookRegistry();
    const errors: HookError[] = [];
    reg.onError((e) => errors.push(e));
    let ran = false;
    const ok = reg.registerSource(
      "arbor.hooks.ts",
      defineHooks((api) => {
        api.on("turn_start", () => {
          ran = true;
        });
        throw new Error("bad config");
      }),
    );
    expect(ok).toBe(false);
    expect(errors[0]).toMatchObject({ source: "arbor.hooks.ts", event: "setup", error: "bad config" });
    expect(reg.hasHandlers("turn_start")).toBe(false);
    expect(reg.getSources()).toEqual([]);
    await reg.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 });
    expect(ran).toBe(false);
  });
});

describe("hook context (session-engine.md §12 ctx)", () => {
  const entries = chain<SessionEntry>(userEntry("u1", null, "hi"), assistantEntry("a1", null, "hello"), labelEntry("l1", null, "u1", "start"));
  const tree = buildTree(entries);

  it("handlers receive a read-only view of the session", async () => {
    const reg = new HookRegistry({ context: createHookContext(tree) });
    let seen: unknown;
    reg.on("turn_start", (_e, ctx) => {
      seen = {
        count: ctx.getEntries().length,
        entry: ctx.getEntry("a1")?.type,
        branch: ctx.getBranch().map((e) => e.id),
        leaf: ctx.getLeafId(),
        roots: ctx.getTree().length,
        label: ctx.getLabel("u1"),
        header: ctx.getHeader().id,
        keys: Object.keys(ctx).sort(),
      };
    });
    await reg.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 });
    expect(seen).toEqual({
      count: 3,
      entry: "message",
      branch: ["u1", "a1", "l1"],
      leaf: "l1",
      roots: 1,
      label: "start",
      header: "session-1",
      keys: ["getBranch", "getEntries", "getEntry", "getHeader", "getLabel", "getLeafId", "getTree"],
    });
  });

  it("mutating getEntries() does not touch the session; the ctx object is frozen", () => {
    const ctx = createHookContext(tree);
    (ctx.getEntries() as unknown[]).length = 0;
    expect(tree.getEntries()).toHaveLength(3);
    expect(Object.isFrozen(ctx)).toBe(true);
    expect("appendMessage" in ctx).toBe(false);
  });

  it("emit(event, ctx) overrides the default context; the default is an empty session", async () => {
    const reg = new HookRegistry();
    const leaves: (string | null)[] = [];
    reg.on("turn_start", (_e, ctx) => void leaves.push(ctx.getLeafId()));
    await reg.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 });
    await reg.emit({ type: "turn_start", turnIndex: 1, timestamp: 0 }, createHookContext(tree));
    expect(leaves).toEqual([null, "l1"]);
    expect(EMPTY_HOOK_CONTEXT.getEntries()).toEqual([]);
  });
});
