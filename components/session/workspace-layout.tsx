"use client";
/**
 * The session workspace's three panes (ui.md): Chat (left, ~40%), Tree (right, top) and the
 * collapsible Inspector (right, bottom); sizes remembered per browser.
 *
 * Under 900 px wide the panes become tabs (Chat, Tree, Inspector) and each fills the width. The
 * switch is CSS (workspace-layout.css), not a JS measurement, so the server renders the same
 * markup the browser hydrates at any width, nothing jumps after load, and every pane stays
 * mounted: a streaming turn, the canvas's viewport and the inspector keep their state across tab
 * changes. Inactive tabs are `visibility: hidden` at full size (not `display: none`), so the canvas
 * measures its real pane even before its tab is first shown.
 */
import { type ReactNode, useEffect, useId, useState } from "react";
import { Split, useStoredNumber } from "./split";
import "./workspace-layout.css";

const PANES = ["Chat", "Tree", "Inspector"] as const;
type Pane = (typeof PANES)[number];

/** Under this width the panes are tabs (keep in step with workspace-layout.css). */
export const NARROW_MAX_WIDTH = 899.98;

/** True while the tabs are shown (for ARIA roles only: the layout itself is CSS). */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia(`(max-width: ${NARROW_MAX_WIDTH}px)`);
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
  const id = useId();
  const tabId = (p: Pane) => `${id}-tab-${p}`;
  const paneId = (p: Pane) => `${id}-pane-${p}`;
  // On narrow screens the wrappers are the tab panels; on wide ones plain regions of the split.
  const paneProps = (p: Pane) => ({
    id: paneId(p),
    "data-pane": p,
    ...(narrow ? { role: "tabpanel", "aria-labelledby": tabId(p) } : {}),
  });

  const inspectorPane = (
    <section aria-label="Context inspector" className="flex h-full min-h-0 flex-col">
      <div className="flex items-center justify-between border-b border-line px-2 py-1 text-sm">
        <h2 className="font-semibold">Inspector</h2>
        <button type="button" className="ws-collapse text-xs text-muted underline" onClick={() => setCollapsed(collapsed ? 0 : 1)} aria-expanded={!collapsed}>
          {collapsed ? "Show inspector" : "Hide inspector"}
        </button>
      </div>
      <div className="ws-inspector-body min-h-0 flex-1 overflow-auto" data-collapsed={collapsed ? "true" : "false"}>
        {inspector}
      </div>
    </section>
  );

  return (
    <div className="ws flex h-full min-h-0 flex-col" data-tab={tab}>
      <div role="tablist" aria-label="Session panes" className="ws-tabs flex shrink-0 border-b border-line">
        {PANES.map((p) => (
          <button
            key={p}
            id={tabId(p)}
            type="button"
            role="tab"
            aria-selected={tab === p}
            aria-controls={paneId(p)}
            tabIndex={tab === p ? 0 : -1}
            onClick={() => setTab(p)}
            onKeyDown={(e) => {
              const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
              if (!step) return;
              e.preventDefault();
              const next = PANES[(PANES.indexOf(p) + step + PANES.length) % PANES.length] ?? p;
              setTab(next);
              document.getElementById(tabId(next))?.focus();
            }}
            className={`flex-1 px-3 py-2 text-sm ${tab === p ? "border-b-2 border-[var(--color-accent)] font-semibold" : "text-muted"}`}
          >
            {p}
          </button>
        ))}
      </div>
      <div className="min-h-0 flex-1">
        <Split
          direction="horizontal"
          storageKey="arbor.split.chat"
          defaultPercent={40}
          label="Resize chat and tree"
          first={chat}
          firstProps={paneProps("Chat")}
          second={
            <Split
              direction="vertical"
              storageKey="arbor.split.inspector"
              defaultPercent={60}
              label="Resize tree and inspector"
              collapsedSecond={!!collapsed}
              first={tree}
              firstProps={paneProps("Tree")}
              second={inspectorPane}
              secondProps={paneProps("Inspector")}
            />
          }
        />
      </div>
    </div>
  );
}
