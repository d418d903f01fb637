"use client";
/**
 * The session workspace's three panes (ui.md): Chat (left, ~40%), Tree (right, top) and the
 * collapsible Inspector (right, bottom); sizes remembered per browser. On narrow screens the panes
 * become tabs in the same order.
 */
import { type ReactNode, useEffect, useState } from "react";
import { Split, useStoredNumber } from "./split";

const PANES = ["Chat", "Tree", "Inspector"] as const;
type Pane = (typeof PANES)[number];

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia("(max-width: 900px)");
    const update = () => setNarrow(mq.matches);
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, []);
  return narrow;
}

export function WorkspaceLayout({ chat, tree, inspector }: { chat: ReactNode; tree: ReactNode; inspector: ReactNode }) {
  const narrow = useNarrow();
  const [tab, setTab] = useState<Pane>("Chat");
  const [collapsed, setCollapsed] = useStoredNumber("arbor.inspectorCollapsed", 0);

  const inspectorPane = (
    <section aria-label="Context inspector" className="flex h-full min-h-0 flex-col">
      <div className="flex items-center justify-between border-b border-line px-2 py-1 text-sm">
        <h2 className="font-semibold">Inspector</h2>
        {!narrow && (
          <button type="button" className="text-xs text-muted underline" onClick={() => setCollapsed(collapsed ? 0 : 1)} aria-expanded={!collapsed}>
            {collapsed ? "Show inspector" : "Hide inspector"}
          </button>
        )}
      </div>
      {!collapsed || narrow ? <div className="min-h-0 flex-1 overflow-auto">{inspector}</div> : null}
    </section>
  );

  if (narrow) {
    const content: Record<Pane, ReactNode> = { Chat: chat, Tree: tree, Inspector: inspectorPane };
    return (
      <div className="flex h-full flex-col">
        <div role="tablist" aria-label="Session panes" className="flex border-b border-line">
          {PANES.map((p) => (
            <button
              key={p}
              type="button"
              role="tab"
              aria-selected={tab === p}
              onClick={() => setTab(p)}
              className={`flex-1 px-3 py-2 text-sm ${tab === p ? "border-b-2 border-[var(--color-accent)] font-semibold" : "text-muted"}`}
            >
              {p}
            </button>
          ))}
        </div>
        <div role="tabpanel" aria-label={tab} className="min-h-0 flex-1">
          {content[tab]}
        </div>
      </div>
    );
  }

  return (
    <div className="h-full">
      <Split
        direction="horizontal"
        storageKey="arbor.split.chat"
        defaultPercent={40}
        label="Resize chat and tree"
        first={chat}
        second={
          collapsed ? (
            <div className="flex h-full flex-col">
              <div className="min-h-0 flex-1">{tree}</div>
              <div className="shrink-0">{inspectorPane}</div>
            </div>
          ) : (
            <Split direction="vertical" storageKey="arbor.split.inspector" defaultPercent={60} label="Resize tree and inspector" first={tree} second={inspectorPane} />
          )
        }
      />
    </div>
  );
}
