/**
 * The session's `settings` column: what it holds and how an update changes it. Pure.
 *
 * Stored document (JSON):
 *   { ...SettingsOverride (lib/settings: compaction, branchSummary, retry, modelRoles),
 *     agent?: { chatModel?: "provider/id", compactionModel?: "provider/id",
 *               tools?: { enabled: ToolName[] } } }
 * lib/settings rejects unknown keys (session-engine.md §15), so the session-level agent options live in the
 * `agent` sub-object, which is split off before `mergeSettings`.
 *
 * Contract:
 * - `readSessionConfig(raw)` never fails: an invalid stored document (hand-edited, older
 *   format) falls back to the defaults for the broken part and reports `warnings`.
 * - `updateSessionConfig(raw, update)` validates the update (field errors name dotted paths,
 *   e.g. "compaction.reserveTokens: expected a positive integer"), merges it into the stored
 *   document per key — a value sets, `null` removes that key from the override (the default
 *   applies again), `settings: null` removes the whole engine override — and validates the
 *   result again. Empty sections are dropped, so an emptied document is stored as null.
 */
import { z } from "zod";
import { TOOL_NAMES, type ToolName } from "@/lib/tools/types";
import {
  defaultSettings,
  formatSettingsIssues,
  mergeSettings,
  modelRefSchema,
  parseSettingsOverride,
  type Settings,
  type SettingsError,
} from "@/lib/settings";

export const AGENT_OPTIONS_KEY = "agent";

export const toolSwitchSchema = z.strictObject({
  enabled: z.array(z.enum(TOOL_NAMES, { error: `expected one of ${TOOL_NAMES.join(", ")}` })),
});

export const agentOptionsSchema = z.strictObject({
  chatModel: modelRefSchema().optional(),
  compactionModel: modelRefSchema().optional(),
  tools: toolSwitchSchema.optional(),
  /** An existing project folder the tools work in instead of the session's own workspace (issue 8); must lie inside ARBOR_ALLOWED_ROOTS. */
  projectDir: z
    .string({ error: "expected an absolute folder path" })
    .max(4096, { error: "the folder path is too long" })
    .refine((p) => p.startsWith("/") && !p.includes("\0"), { error: "expected an absolute folder path" })
    .optional(),
});

export interface AgentOptions {
  chatModel?: string;
  compactionModel?: string;
  tools?: { enabled: ToolName[] };
  projectDir?: string;
}

export interface SessionConfig {
  settings: Settings;
  /** The engine part of the stored document (a SettingsOverride). */
  override: Record<string, unknown>;
  agent: AgentOptions;
  warnings: string[];
}

export interface SessionConfigUpdate {
  settings?: Record<string, unknown> | null;
  chatModel?: string | null;
  compactionModel?: string | null;
  tools?: { enabled: ToolName[] } | null;
  projectDir?: string | null;
}

export type UpdateResult =
  | { ok: true; stored: Record<string, unknown> | null; config: SessionConfig }
  | { ok: false; errors: SettingsError[] };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function split(raw: unknown): { override: Record<string, unknown>; agent: unknown } {
  if (!isObject(raw)) return { override: {}, agent: undefined };
  const { [AGENT_OPTIONS_KEY]: agent, ...override } = raw;
  return { override, agent };
}

export function readSessionConfig(raw: unknown): SessionConfig {
  const warnings: string[] = [];
  const { override, agent: rawAgent } = split(raw);
  let settings = defaultSettings();
  const merged = mergeSettings(settings, override);
  if (merged.ok) settings = merged.settings;
  else warnings.push(...merged.errors.map((e) => `Stored session settings ignored: ${e.message}`));
  let agent: AgentOptions = {};
  if (rawAgent !== undefined) {
    const parsed = agentOptionsSchema.safeParse(rawAgent);
    if (parsed.success) agent = parsed.data;
    else {
      const errors = formatSettingsIssues(parsed.error.issues);
      warnings.push(...errors.map((e) => `Stored agent options ignored: ${AGENT_OPTIONS_KEY}.${e.message}`));
    }
  }
  return { settings, override: merged.ok ? override : {}, agent, warnings };
}

/** The document with every null (section or key) replaced by undefined, keys kept. */
function nullsAsAbsent(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [section, values] of Object.entries(doc)) {
    if (values === null) out[section] = undefined;
    else if (isObject(values)) {
      out[section] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === null ? undefined : v]));
    } else out[section] = values;
  }
  return out;
}

/** Applies an override (null removes a key) onto a stored override, section by section. */
function mergeOverride(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [section, values] of Object.entries(patch)) {
    if (values === undefined) continue;
    if (values === null) {
      delete out[section];
      continue;
    }
    const next: Record<string, unknown> = isObject(out[section]) ? { ...(out[section] as object) } : {};
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (value === undefined) continue;
      if (value === null) delete next[key];
      else next[key] = value;
    }
    if (Object.keys(next).length > 0) out[section] = next;
    else delete out[section];
  }
  return out;
}

export function updateSessionConfig(raw: unknown, update: SessionConfigUpdate): UpdateResult {
  const current = split(raw);
  const errors: SettingsError[] = [];

  let override = readSessionConfig(raw).override;
  if (update.settings === null) override = {};
  else if (update.settings !== undefined) {
    // A null removes a key, so it is checked as "absent" (but still must name a real setting).
    const parsed = parseSettingsOverride(nullsAsAbsent(update.settings));
    if (!parsed.ok) errors.push(...parsed.errors);
    else override = mergeOverride(override, update.settings);
  }

  const agentParsed = agentOptionsSchema.safeParse(current.agent ?? {});
  const agent: Record<string, unknown> = agentParsed.success ? { ...agentParsed.data } : {};
  const fields = { chatModel: update.chatModel, compactionModel: update.compactionModel, tools: update.tools, projectDir: update.projectDir };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value === null) delete agent[key];
    else agent[key] = value;
  }
  const agentCheck = agentOptionsSchema.safeParse(agent);
  if (!agentCheck.success) errors.push(...formatSettingsIssues(agentCheck.error.issues));

  if (errors.length > 0) return { ok: false, errors };
  const merged = mergeSettings(defaultSettings(), override);
  if (!merged.ok) return { ok: false, errors: merged.errors };

  const stored: Record<string, unknown> = { ...override };
  if (agentCheck.success && Object.keys(agentCheck.data).length > 0) stored[AGENT_OPTIONS_KEY] = agentCheck.data;
  const doc = Object.keys(stored).length > 0 ? stored : null;
  return { ok: true, stored: doc, config: readSessionConfig(doc) };
}
