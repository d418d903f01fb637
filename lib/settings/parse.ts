/**
 * Parsing and merging of settings (session-engine.md §15).
 * Pure: no network, disk or database access. Invalid input is an expected failure, so both
 * functions return a result instead of throwing; every error names the dotted field path.
 */
import type { z } from "zod";
import {
  type Settings,
  type SettingsOverride,
  settingsOverrideSchema,
  settingsSchema,
} from "@/lib/settings/schema";

export interface SettingsError {
  /** Dotted path of the offending field, e.g. "compaction.reserveTokens" ("" for the root). */
  path: string;
  /** Human-readable message that starts with the path, e.g. "compaction.reserveTokens: expected a positive integer". */
  message: string;
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; errors: SettingsError[] };
export type SettingsOverrideResult =
  | { ok: true; override: SettingsOverride }
  | { ok: false; errors: SettingsError[] };

function joinPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join(".");
}

function withPath(path: string, text: string): SettingsError {
  return { path, message: path ? `${path}: ${text}` : text };
}

/** One error per offending field; an unknown key is reported at its own path. */
export function formatSettingsIssues(issues: readonly z.core.$ZodIssue[]): SettingsError[] {
  const errors: SettingsError[] = [];
  for (const issue of issues) {
    const base = joinPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors.push(withPath(base ? `${base}.${key}` : key, "unknown setting"));
    } else if (issue.code === "invalid_type" && issue.expected === "object") {
      errors.push(withPath(base, base ? "expected an object of settings" : "expected a settings object"));
    } else {
      errors.push(withPath(base, issue.message));
    }
  }
  return errors;
}

/** Validates a complete or partial settings document; missing keys take their defaults. */
export function parseSettings(input: unknown): SettingsResult {
  const parsed = settingsSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: formatSettingsIssues(parsed.error.issues) };
  return { ok: true, settings: parsed.data };
}

/** Validates an override without filling any defaults (so only the keys given are changed). */
export function parseSettingsOverride(input: unknown): SettingsOverrideResult {
  const parsed = settingsOverrideSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: formatSettingsIssues(parsed.error.issues) };
  return { ok: true, override: parsed.data };
}

function mergeSection<T extends object>(base: T, override: object | undefined): T {
  const out = { ...base } as Record<string, unknown>;
  if (!override) return out as T;
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue; // absent in the override: keep the base value
    if (value === null) delete out[key]; // explicit null clears an optional setting
    else out[key] = value;
  }
  return out as T;
}

/**
 * Deep per-section merge: each key present in `override` replaces the base value, `null`
 * clears an optional key (remote endpoint, model roles), and everything else is kept.
 * The override is validated first and the merged result is validated again.
 */
export function mergeSettings(base: Settings, override: unknown): SettingsResult {
  const parsedOverride = parseSettingsOverride(override);
  if (!parsedOverride.ok) return parsedOverride;
  const o = parsedOverride.override;
  return parseSettings({
    compaction: mergeSection(base.compaction, o.compaction),
    branchSummary: mergeSection(base.branchSummary, o.branchSummary),
    retry: mergeSection(base.retry, o.retry),
    modelRoles: mergeSection(base.modelRoles, o.modelRoles),
    ...(base.secrets || o.secrets ? { secrets: mergeSection(base.secrets ?? {}, o.secrets) } : {}),
  });
}
