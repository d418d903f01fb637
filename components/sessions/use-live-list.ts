"use client";
/**
 * Keeps the home page's session list in step with sessions written elsewhere — a folder sync or
 * the app's own watcher importing an agent's new files or appending their lines, another tab,
 * another app process: subscribes to GET /api/sessions/events and refetches the list's loaded
 * pages on each change (their order, titles, sizes and "live" badges follow). Changes within
 * THROTTLE_MS are taken together, so a sync of thousands of files refetches a few times a
 * second at most. `ready` on each (re)connect refetches once, for what changed while no one listened.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { keys } from "@/lib/query/keys";

const THROTTLE_MS = 500;

export function useLiveList(): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/sessions/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: keys.sessions() });
      }, THROTTLE_MS);
    };
    source.addEventListener("ready", () => {
      // The page's own load is fresh; a reconnect is not.
      if (!first) refresh();
      first = false;
    });
    source.addEventListener("change", refresh);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [qc]);
}
