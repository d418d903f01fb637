"use client";
/**
 * False while rendering on the server and while the browser hydrates that HTML (it must render
 * what the server did), true from the render React schedules right after hydration and in any
 * render of a component mounted later on the client (a client-side navigation): no extra pass.
 */
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
