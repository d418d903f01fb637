/**
 * Public entry of the hooks module (session-engine.md §12). Pure: re-exports only.
 */
export * from "@/lib/hooks/context";
export * from "@/lib/hooks/registry";
export type * from "@/lib/hooks/types";
