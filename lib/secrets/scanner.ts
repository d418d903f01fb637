/**
 * The secret scanner: secretlint (`@secretlint/core` with `@secretlint/secretlint-rule-preset-recommend`,
 * both pinned) over one text, behind the pre-filter of candidates.ts. No I/O, no database; server
 * side only (the preset is 230 KB of rules the browser never needs).
 *
 * Contract of `scanText(text)`:
 * - Every credential the preset's rules report, as `{ start, end, rule, kind }`: `start`/`end` are
 *   UTF-16 offsets of the secret itself in `text` (see `locate`), sorted by start, never
 *   overlapping (an overlapped report is dropped: its text is masked by the other one).
 * - Texts the pre-filter rules out are not scanned, and a text it lets through is scanned with
 *   the rules it names only (candidates.ts: no other rule could report in it).
 * - AWS access key ids are reported; account ids are not: an account id is an identifier, not a
 *   credential (AWS documents that it may be shared), and "account: <12 digits>" is common in
 *   ordinary text; docs/secrets.md.
 */
import { lintSource } from "@secretlint/core";
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import { candidateRules, mayHoldSecret } from "./candidates";
import { kindOf } from "./kinds";

export interface SecretMatch {
  /** Offsets of the secret in the scanned text (UTF-16 code units, end exclusive). */
  start: number;
  end: number;
  /** `<short rule id>/<message id>`, e.g. "github/GITHUB_TOKEN". */
  rule: string;
  /** Human name, e.g. "GitHub token". */
  kind: string;
}

type LintOptions = Parameters<typeof lintSource>[0];
type LintMessage = Awaited<ReturnType<typeof lintSource>>["messages"][number];

const RULE_PREFIX = "@secretlint/secretlint-rule-";
type ConfigRule = LintOptions["options"]["config"]["rules"][number];

/**
 * The preset's rules, one by one (its public `rules` list), so that each text runs only the
 * rules the pre-filter names. Left out: the GCP rule (it reads `.json` / `.p12` files only) and
 * the comment filter (a `secretlint-disable` comment inside a session must not hide a secret
 * from masking). The AWS rule reports access key ids too (`enableIDScanRule`: off in the preset;
 * an id names a credential and is the part of an AWS key pair people recognize), never account ids.
 */
const RULES = new Map<string, ConfigRule>(
  presetRules
    .map((rule): [string, ConfigRule] => {
      const id = rule.meta.id.startsWith(RULE_PREFIX) ? rule.meta.id.slice(RULE_PREFIX.length) : rule.meta.id;
      return id === "aws" ? [id, { id: rule.meta.id, rule, options: { enableIDScanRule: true }, allowMessageIds: ["AWSAccountID"] }] : [id, { id: rule.meta.id, rule }];
    })
    .filter(([id]) => id !== "gcp" && id !== "filter-comments"),
);

/** The secretlint configuration of every rule the scanner runs. */
export const SECRETLINT_CONFIG: LintOptions["options"]["config"] = { rules: [...RULES.values()] };


/**
 * Where the secret really is. Rules report a range, and put the value in the message's data
 * (KEY, TOKEN, URI, …); for most the range is the value, but the AWS secret-key rule reports
 * the start of `aws_secret_access_key = …` with the key's length. So: a data value found at the
 * range's start wins, else the first data value found inside the reported stretch, else the range.
 */
function locate(text: string, m: LintMessage): { start: number; end: number } {
  const [from, to] = m.range;
  const values = Object.values((m.data ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === "string" && v.length >= 4);
  for (const v of values) if (text.startsWith(v, from)) return { start: from, end: from + v.length };
  for (const v of values) {
    const at = text.indexOf(v, from);
    if (at !== -1 && at <= Math.max(to, from + 300)) return { start: at, end: at + v.length };
  }
  return { start: from, end: to };
}

/**
 * A URL's password is the secret of a basic-auth or connection-string report (the rules report
 * the whole URL): the match is narrowed to it, so a masked URL keeps its scheme, user and host.
 */
function narrowToPassword(text: string, span: { start: number; end: number }): { start: number; end: number } {
  const value = text.slice(span.start, span.end);
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^:@/\s]*:([^@/\s]+)@/i.exec(value);
  if (!url?.[1]) return span;
  const start = span.start + url[0].length - 1 - url[1].length;
  return { start, end: start + url[1].length };
}

export async function scanText(text: string): Promise<SecretMatch[]> {
  if (!mayHoldSecret(text)) return [];
  const rules: ConfigRule[] = [];
  for (const id of candidateRules(text)) {
    const rule = RULES.get(id);
    if (rule) rules.push(rule);
  }
  const result = await lintSource({
    source: { content: text, filePath: "entry.txt", ext: ".txt", contentType: "text" },
    options: { config: { rules }, noPhysicFilePath: true },
  });
  const matches = result.messages
    .map((m): SecretMatch => {
      const rule = `${m.ruleId.startsWith(RULE_PREFIX) ? m.ruleId.slice(RULE_PREFIX.length) : m.ruleId}/${m.messageId}`;
      return { ...narrowToPassword(text, locate(text, m)), rule, kind: kindOf(rule) };
    })
    .filter((m) => m.end > m.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretMatch[] = [];
  for (const m of matches) {
    const last = kept.at(-1);
    if (!last || m.start >= last.end) kept.push(m);
  }
  return kept;
}
