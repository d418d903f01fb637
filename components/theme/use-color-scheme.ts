"use client";
/**
 * The system colour scheme for components that must name it in markup (React Flow's `dark`
 * class). The server cannot know it, so hydration uses the server's answer ("light") and React
 * re-renders with the browser's right after: no hydration mismatch in a dark theme (before,
 * React Flow's `colorMode="system"` read matchMedia during hydration and the class differed).
 * Page colours themselves come from CSS (`prefers-color-scheme` in app/globals.css).
 */
import { useSyncExternalStore } from "react";

const QUERY = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener("change", onChange);
  return () => mq.removeEventListener("change", onChange);
}

export function useColorScheme(): "light" | "dark" {
  return useSyncExternalStore(
    subscribe,
    () => (window.matchMedia(QUERY).matches ? "dark" : "light"),
    () => "light",
  );
}
