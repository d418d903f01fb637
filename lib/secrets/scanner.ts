/**
 * The secret scanner: secretlint (`@secretlint/core` with `@secretlint/secretlint-rule-preset-recommend`,
 * both pinned) over one text, behind the pre-filter of candidates.ts. No I/O, no database; server
 * side only (the preset is 230 KB of rules the browser never needs).
 *
 * Contract of `scanText(text)`:
 * - Every credential the preset's rules report, as `{ start, end, rule, kind }`: `start`/`end` are
 *   UTF-16 offsets of the secret itself in `text` (see `locate`), sorted by start, never
 *   overlapping (an overlapped report is dropped: its text is masked by the other one).
 * - Texts the pre-filter rules out are not scanned (candidates.ts proves no rule could report
 *   in them).
 * - AWS access key ids are reported (the rule's `enableIDScanRule`); its account-id message is suppressed: an account id is an identifier, not a
 *   credential (AWS documents that it may be shared), and "account: <12 digits>" is common in
 *   ordinary text; docs/secrets.md.
 */
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { mayHoldSecret } from "./candidates";
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

/** The secretlint configuration: the recommended preset, AWS adjusted (see the header). */
export const SECRETLINT_CONFIG: LintOptions["options"]["config"] = {
  rules: [
    {
      id: recommended.meta.id,
      rule: recommended,
      // The access key id (AKIA…) is off in the preset by default; it names a credential and is
      // the part of an AWS key pair people recognize, so it is reported. Account ids stay out.
      rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true }, allowMessageIds: ["AWSAccountID"] }],
    },
  ],
};

const RULE_PREFIX = "@secretlint/secretlint-rule-";

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
  const result = await lintSource({
    source: { content: text, filePath: "entry.txt", ext: ".txt", contentType: "text" },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
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
