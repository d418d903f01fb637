/**
 * Public entry of the settings module (session-engine.md §15). Pure: re-exports only.
 */
export * from "@/lib/settings/parse";
export * from "@/lib/settings/schema";
