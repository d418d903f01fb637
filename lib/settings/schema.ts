/**
 * Settings schema, defaults and fixed constants (session-engine.md §15).
 * Pure: no network, disk or database access. Every key has a default and unknown keys are
 * rejected at every level. Two schemas are built from the same field definitions: the full one
 * (`settingsSchema`, fills defaults) and a partial one for overrides (`settingsOverrideSchema`,
 * fills nothing), so a stored override never silently freezes today's defaults.
 */
import { z } from "zod";

// ── Fixed constants (session-engine.md §15; not settings) ───────────────────────────────

/** Longest acceptable retry delay before auto-compaction moves to the next candidate (session-engine.md §13.3). */
export const MAX_RETRY_DELAY_MS = 30_000;
/** Delay before continuing the agent after an auto-compaction (session-engine.md §13.3 step 9). */
export const CONTINUATION_DELAY_MS = 100;
/** Fixed `maxTokens` of a branch summary call (session-engine.md §6.3, §11.3). */
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;
/** Context window assumed when the model does not report one (session-engine.md §11.3). */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/** Roles a model can be assigned to, in the candidate order of session-engine.md §13.3 step 5. */
export const MODEL_ROLES = ["default", "smol", "slow", "plan", "commit"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

// ── Field definitions (no defaults here) ───────────────────────────────────

const POSITIVE_INT = "expected a positive integer";
const NON_NEGATIVE_INT = "expected a non-negative integer";

const positiveInt = () => z.int({ error: POSITIVE_INT }).positive({ error: POSITIVE_INT });
const bool = () => z.boolean({ error: "expected true or false" });

/** A "provider/modelId" reference (lib/session/model-ref.ts); the model id itself may contain slashes (e.g. OpenRouter). */
export const modelRefSchema = () =>
  z
    .string({ error: 'expected a "provider/modelId" string' })
    .regex(/^[^/\s]+\/\S+$/, { error: 'expected a "provider/modelId" string' });
/** Remote compaction endpoint (session-engine.md §7): an absolute http(s) URL. */
const endpointUrl = () => z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });

const compactionFields = {
  enabled: bool(),
  reserveTokens: positiveInt(),
  keepRecentTokens: positiveInt(),
  autoContinue: bool(),
};
const branchSummaryFields = {
  enabled: bool(),
  reserveTokens: positiveInt(),
};
const retryFields = {
  enabled: bool(),
  maxRetries: z
    .int({ error: "expected an integer from 0 to 10" })
    .min(0, { error: "expected an integer from 0 to 10" })
    .max(10, { error: "expected an integer from 0 to 10" }),
  baseDelayMs: z
    .int({ error: NON_NEGATIVE_INT })
    .min(0, { error: NON_NEGATIVE_INT })
    .max(MAX_RETRY_DELAY_MS, { error: `expected an integer from 0 to ${MAX_RETRY_DELAY_MS}` }),
};

// ── Defaults (session-engine.md §15) ────────────────────────────────────────────────────

export const DEFAULT_COMPACTION_SETTINGS = {
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
  autoContinue: true,
} as const satisfies CompactionSettings;

export const DEFAULT_BRANCH_SUMMARY_SETTINGS = {
  // oh-my-pi defaults to false; Arbor offers summaries by default (session-engine.md §18.8).
  enabled: true,
  reserveTokens: 16384,
} as const satisfies BranchSummarySettings;

export const DEFAULT_RETRY_SETTINGS = {
  enabled: true,
  maxRetries: 3,
  baseDelayMs: 2000,
} as const satisfies RetrySettings;

// ── Full schema ────────────────────────────────────────────────────────────

const compactionSchema = z.strictObject({
  enabled: compactionFields.enabled.default(DEFAULT_COMPACTION_SETTINGS.enabled),
  reserveTokens: compactionFields.reserveTokens.default(DEFAULT_COMPACTION_SETTINGS.reserveTokens),
  keepRecentTokens: compactionFields.keepRecentTokens.default(DEFAULT_COMPACTION_SETTINGS.keepRecentTokens),
  autoContinue: compactionFields.autoContinue.default(DEFAULT_COMPACTION_SETTINGS.autoContinue),
  remoteEndpoint: endpointUrl().optional(),
  /** Arbor (session-engine.md §19.2): summaries cite their source entries. Opt-in: absent means off. */
  citeSources: bool().optional(),
});
const branchSummarySchema = z.strictObject({
  enabled: branchSummaryFields.enabled.default(DEFAULT_BRANCH_SUMMARY_SETTINGS.enabled),
  reserveTokens: branchSummaryFields.reserveTokens.default(DEFAULT_BRANCH_SUMMARY_SETTINGS.reserveTokens),
});
const retrySchema = z.strictObject({
  enabled: retryFields.enabled.default(DEFAULT_RETRY_SETTINGS.enabled),
  maxRetries: retryFields.maxRetries.default(DEFAULT_RETRY_SETTINGS.maxRetries),
  baseDelayMs: retryFields.baseDelayMs.default(DEFAULT_RETRY_SETTINGS.baseDelayMs),
});
const modelRolesSchema = z.strictObject({
  default: modelRefSchema().optional(),
  smol: modelRefSchema().optional(),
  slow: modelRefSchema().optional(),
  plan: modelRefSchema().optional(),
  commit: modelRefSchema().optional(),
});

/** The full settings schema: missing keys and sections take their defaults. */
export const settingsSchema = z.strictObject({
  // `prefault({})` parses the empty section, so the inner defaults apply.
  compaction: compactionSchema.prefault({}),
  branchSummary: branchSummarySchema.prefault({}),
  retry: retrySchema.prefault({}),
  modelRoles: modelRolesSchema.prefault({}),
});

// ── Override schema (partial; nothing is defaulted) ────────────────────────

/** `null` clears an optional setting (endpoint, model roles) in an override. */
export const settingsOverrideSchema = z.strictObject({
  compaction: z
    .strictObject({
      enabled: compactionFields.enabled.optional(),
      reserveTokens: compactionFields.reserveTokens.optional(),
      keepRecentTokens: compactionFields.keepRecentTokens.optional(),
      autoContinue: compactionFields.autoContinue.optional(),
      remoteEndpoint: endpointUrl().nullable().optional(),
      citeSources: bool().nullable().optional(),
    })
    .optional(),
  branchSummary: z
    .strictObject({
      enabled: branchSummaryFields.enabled.optional(),
      reserveTokens: branchSummaryFields.reserveTokens.optional(),
    })
    .optional(),
  retry: z
    .strictObject({
      enabled: retryFields.enabled.optional(),
      maxRetries: retryFields.maxRetries.optional(),
      baseDelayMs: retryFields.baseDelayMs.optional(),
    })
    .optional(),
  modelRoles: z
    .strictObject({
      default: modelRefSchema().nullable().optional(),
      smol: modelRefSchema().nullable().optional(),
      slow: modelRefSchema().nullable().optional(),
      plan: modelRefSchema().nullable().optional(),
      commit: modelRefSchema().nullable().optional(),
    })
    .optional(),
});

// ── Types ──────────────────────────────────────────────────────────────────

export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  autoContinue: boolean;
  remoteEndpoint?: string;
  /** Arbor: the compaction prompt asks for `[src: id, …]` tags per bullet (docs/session-engine.md §19.2). */
  citeSources?: boolean;
}
export interface BranchSummarySettings {
  enabled: boolean;
  reserveTokens: number;
}
export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
}
export type ModelRoles = Partial<Record<ModelRole, string>>;
export interface Settings {
  compaction: CompactionSettings;
  branchSummary: BranchSummarySettings;
  retry: RetrySettings;
  modelRoles: ModelRoles;
}
export type SettingsOverride = z.input<typeof settingsOverrideSchema>;

// Compile-time proof that the hand-written interfaces and the schema agree.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const schemaMatchesSettings: Equal<z.output<typeof settingsSchema>, Settings> = true;
void schemaMatchesSettings;

/** Every default, as a fresh object (callers may mutate their copy). */
export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}

function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const v of Object.values(value)) if (typeof v === "object" && v !== null) deepFreeze(v);
  return Object.freeze(value);
}

/** Every default, frozen at every level; use `defaultSettings()` for a mutable copy. */
export const DEFAULT_SETTINGS: Readonly<Settings> = deepFreeze(defaultSettings());

/** UI labels named by the spec (§15), keyed by dotted path (the settings panel uses them); other fields use their key. */
export const SETTING_LABELS = {
  "compaction.enabled": "Auto-compact",
  "branchSummary.enabled": "Branch summaries",
  "retry.maxRetries": "Retry max attempts",
} as const satisfies Record<string, string>;
