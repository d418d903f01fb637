/**
 * Server-side loader for the nine summarization templates (session-engine.md §17).
 * Reads `prompts/*.md` once per directory and hands the engine a PromptSet: the seven static
 * templates pre-rendered with the §17 normalization, the two context wrappers raw (they are
 * rendered per message with `{{summary}}`). The engine itself never reads files.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { renderTemplate } from "@/lib/session/prompt-template";
import type { PromptSet } from "@/lib/session/types";
import { errorText } from "@/lib/text/error-text";

/** PromptSet key → file name in the prompts directory. */
export const PROMPT_FILES = {
  compactionSummary: "compaction-summary.md",
  compactionUpdateSummary: "compaction-update-summary.md",
  compactionTurnPrefix: "compaction-turn-prefix.md",
  compactionShortSummary: "compaction-short-summary.md",
  compactionSummaryContext: "compaction-summary-context.md",
  branchSummaryContext: "branch-summary-context.md",
  branchSummary: "branch-summary.md",
  branchSummaryPreamble: "branch-summary-preamble.md",
  summarizationSystem: "summarization-system.md",
} as const satisfies Record<keyof PromptSet, string>;

/** The only templates that take `{{summary}}` (session-engine.md §17.5, §17.6). */
const WRAPPERS: ReadonlySet<keyof PromptSet> = new Set(["compactionSummaryContext", "branchSummaryContext"]);
const SUMMARY_PLACEHOLDER = "{{summary}}";
/** The wrapped form both context templates must contain (session-engine.md §17.5 and §17.6, step 3). */
const SUMMARY_BLOCK = `<summary>\n${SUMMARY_PLACEHOLDER}\n</summary>`;

export function defaultPromptsDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "prompts");
}

/**
 * Validates raw template texts and builds the PromptSet. `read` returns a file's text, or
 * undefined when it does not exist. Every problem is collected so one error names them all.
 */
export function buildPromptSet(read: (file: string) => string | undefined, where = "prompts"): PromptSet {
  const problems: string[] = [];
  const out: Partial<Record<keyof PromptSet, string>> = {};
  for (const [key, file] of Object.entries(PROMPT_FILES) as [keyof PromptSet, string][]) {
    const raw = read(file);
    if (raw === undefined) {
      problems.push(`${file}: file is missing`);
      continue;
    }
    const text = raw.replace(/\r\n?/g, "\n");
    if (WRAPPERS.has(key)) {
      if (!text.includes(SUMMARY_BLOCK)) {
        problems.push(`${file}: must contain "<summary>", "${SUMMARY_PLACEHOLDER}" and "</summary>" on three consecutive lines`);
        continue;
      }
      out[key] = raw;
      continue;
    }
    if (text.includes(SUMMARY_PLACEHOLDER)) {
      problems.push(`${file}: only the context wrappers may contain ${SUMMARY_PLACEHOLDER}`);
      continue;
    }
    try {
      const rendered = renderTemplate(text);
      if (!rendered) problems.push(`${file}: template is empty`);
      else out[key] = rendered;
    } catch (err) {
      problems.push(`${file}: ${errorText(err)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`Invalid prompt templates in ${where}:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  }
  return out as PromptSet;
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

const cache = new Map<string, PromptSet>();

/** Loads and validates the templates from `dir` (default `<cwd>/prompts`), once per directory. */
export function loadPrompts(dir: string = defaultPromptsDir()): PromptSet {
  const resolved = path.resolve(dir);
  const cached = cache.get(resolved);
  if (cached) return cached;
  const prompts = Object.freeze(buildPromptSet((file) => readIfExists(path.join(resolved, file)), resolved));
  cache.set(resolved, prompts);
  return prompts;
}

/** Forgets loaded templates (tests, or a dev server picking up edited prompt files). */
export function clearPromptCache(): void {
  cache.clear();
}
