/**
 * The scanner's cheap pre-filter: whether a text MAY hold a credential that the secretlint rules
 * of scanner.ts could report. Pure and browser-safe: no secretlint, no I/O.
 *
 * Contract: a superset. For every text on which a rule of
 * `@secretlint/secretlint-rule-preset-recommend` 13.1.0 reports something, `mayHoldSecret` is
 * true and `candidateRules` names that rule (scanner.test.ts checks it on every fake credential
 * kind, in prose, in JSON and in a JSON-encoded line). The scanner then runs only the rules
 * named: a credential-bearing line costs one or two rules, not the preset's 27. A false answer lets the import skip the full scan, which is what keeps
 * the scan of an import's stream near 10 % of the import's time (docs/secrets.md).
 * It works on raw JSONL lines as well as on decoded strings: every anchor below is made of
 * characters JSON never escapes.
 *
 * Why not one regular expression of every prefix: V8 runs an alternation of ~50 literals at
 * ~100 MB/s, while `indexOf` of one literal runs at several GB/s when its first character is
 * rare. So the text is searched for a few rare characters ("_", "-", ".", "//", "A", "k", "K")
 * and one literal, and each hit is checked against the rules' prefixes right there. Measured on the bench's 85 MB session: docs/benchmarks.md.
 *
 * Anchors, by rule (the rule's pattern in brackets):
 * - "_": GitHub [ghp|gho|ghu|ghs|ghr|github_pat]_, npm [npm_, _authToken=], Shopify
 *   [shppa|shpca|shpat|shpss]_, Stripe [sk|rk]_[live|test]_, Grafana [glc|glsa]_, Groq gsk_,
 *   Hugging Face hf_, Linear lin_api_, Notion ntn_, 1Password ops_, Vercel vc[pikar]_,
 *   Docker dckr_pat_, Figma figd_, Cloudflare [cfk|cfut|cfat]_;
 * - "-": Slack [xoxb|xoxp|xapp|xoxa|xoxo|xoxr]-, GitLab glpat-, Anthropic sk-ant-, OpenAI
 *   sk-[proj|svcacct|admin]- and sk-<20>T3BlbkFJ, Tailscale tskey-, private keys -----BEGIN,
 *   npm's x-oauth-basic@;
 * - ".": SendGrid SG., HashiCorp Vault hv[sbr].;
 * - "://": a user:password@ before the path (basic auth, database connection strings) and
 *   Slack's hooks.slack.com webhooks;
 * - "A": the AWS access key id prefixes (A3T?, AKIA, ASIA …);
 * - "k" / "K": the AWS secret access key's name (`secret_access_key = …` in the rule's cases);
 * - "dapi": Databricks.
 * Not anchored: the GCP rule (it reads only `.json` files, never a text the scanner passes) and
 * the AWS account-id message, which scanner.ts suppresses (docs/secrets.md says why).
 */

type Rule =
  | "aws"
  | "privatekey"
  | "npm"
  | "basicauth"
  | "slack"
  | "sendgrid"
  | "shopify"
  | "stripe"
  | "github"
  | "gitlab"
  | "grafana"
  | "openai"
  | "anthropic"
  | "groq"
  | "huggingface"
  | "linear"
  | "notion"
  | "1password"
  | "database-connection-string"
  | "hashicorp-vault"
  | "vercel"
  | "databricks"
  | "docker"
  | "figma"
  | "cloudflare"
  | "tailscale";

/** Called with each rule an anchor points to; returns true to stop looking. */
type Found = (rule: Rule) => boolean;

/** Prefixes that end right before a "_" (the token's body follows), with their rule, by their last character. */
const BEFORE_UNDERSCORE = byLastChar({
  github: ["ghp", "gho", "ghu", "ghs", "ghr", "github_pat"],
  npm: ["npm"],
  shopify: ["shppa", "shpca", "shpat", "shpss"],
  stripe: ["sk_live", "sk_test", "rk_live", "rk_test"],
  grafana: ["glc", "glsa"],
  groq: ["gsk"],
  huggingface: ["hf"],
  linear: ["lin_api"],
  notion: ["ntn"],
  "1password": ["ops"],
  vercel: ["vcp", "vci", "vca", "vcr", "vck"],
  docker: ["dckr_pat"],
  figma: ["figd"],
  cloudflare: ["cfk", "cfut", "cfat"],
});
/** Prefixes that end right before a "-" ("sk" is checked further: see skRule). */
const BEFORE_DASH = byLastChar({ slack: ["xoxb", "xoxp", "xapp", "xoxa", "xoxo", "xoxr"], gitlab: ["glpat"], tailscale: ["tskey"] });
/** Prefixes that end right before a ".". */
const BEFORE_DOT = byLastChar({ sendgrid: ["SG"], "hashicorp-vault": ["hvs", "hvb", "hvr"] });

/** How far after "://" a user:password@ may end (the rules allow 100 + 200 characters, plus a scheme). */
const USERINFO_REACH = 600;

function byLastChar(groups: Partial<Record<Rule, string[]>>): Map<number, [string, Rule][]> {
  const map = new Map<number, [string, Rule][]>();
  for (const [rule, prefixes] of Object.entries(groups) as [Rule, string[]][]) {
    for (const p of prefixes) {
      const last = p.charCodeAt(p.length - 1);
      map.set(last, [...(map.get(last) ?? []), [p, rule]]);
    }
  }
  return map;
}

/** The rule of a table's prefix that ends right before position `i`, if any. */
function prefixBefore(text: string, i: number, table: Map<number, [string, Rule][]>): Rule | undefined {
  const list = table.get(text.charCodeAt(i - 1));
  if (!list) return undefined;
  for (const [p, rule] of list) if (text.startsWith(p, i - p.length)) return rule;
  return undefined;
}

function underscoreHits(text: string, found: Found): boolean {
  for (let i = text.indexOf("_"); i !== -1; i = text.indexOf("_", i + 1)) {
    const rule = prefixBefore(text, i, BEFORE_UNDERSCORE) ?? (text.startsWith("authToken", i + 1) ? "npm" : undefined);
    if (rule && found(rule)) return true;
  }
  return false;
}

/** After "sk-": Anthropic's `sk-ant-`, OpenAI's `sk-proj-` / `sk-svcacct-` / `sk-admin-`, or 20 characters then OpenAI's marker. */
function skRule(text: string, dash: number): Rule | undefined {
  if (!text.startsWith("sk", dash - 2)) return undefined;
  const at = dash + 1;
  if (text.startsWith("ant-", at)) return "anthropic";
  const openai = text.startsWith("proj-", at) || text.startsWith("svcacct-", at) || text.startsWith("admin-", at) || text.startsWith("T3BlbkFJ", at + 20);
  return openai ? "openai" : undefined;
}

function dashHits(text: string, found: Found): boolean {
  for (let i = text.indexOf("-"); i !== -1; i = text.indexOf("-", i + 1)) {
    const rule =
      prefixBefore(text, i, BEFORE_DASH) ??
      skRule(text, i) ??
      (text.startsWith("----BEGIN", i + 1) ? "privatekey" : text.startsWith("oauth-basic@", i + 1) ? "npm" : undefined);
    if (rule && found(rule)) return true;
  }
  return false;
}

function dotHits(text: string, found: Found): boolean {
  for (let i = text.indexOf("."); i !== -1; i = text.indexOf(".", i + 1)) {
    const rule = prefixBefore(text, i, BEFORE_DOT);
    if (rule && found(rule)) return true;
  }
  return false;
}

/** "://" followed by user:password@ (an "@" before any "/" or whitespace), or a Slack webhook host. */
function urlHits(text: string, found: Found): boolean {
  // "//" rather than "://": a search is as slow as its first character is common, and ":" is.
  for (let i = text.indexOf("//"); i !== -1; i = text.indexOf("//", i + 2)) {
    if (text.charCodeAt(i - 1) !== 58 /* : */) continue;
    if (text.startsWith("hooks.slack.com", i + 2) && found("slack")) return true;
    const end = Math.min(text.length, i + 2 + USERINFO_REACH);
    for (let j = i + 2; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c === 64 /* @ */) {
        if (found("basicauth") || found("database-connection-string")) return true;
        break;
      }
      if (c === 47 /* / */ || c === 32 || c === 10 || c === 13 || c === 9) break;
    }
  }
  return false;
}

/**
 * The AWS secret access key's name, `(SECRET|secret|Secret)_?(ACCESS|access|Access)_?(KEY|key|Key)`,
 * anchored on its "k" / "K" (rare letters: every letter of "secret" and "access" is common, and
 * a search costs about one step per occurrence of the anchor's first character).
 */
const AWS_SECRET_NAME = /(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?$/;
function awsSecretHit(text: string, anchor: "k" | "K"): boolean {
  for (let i = text.indexOf(anchor); i !== -1; i = text.indexOf(anchor, i + 1)) {
    const before = text.charCodeAt(i - 1) === 95 /* _ */ ? i - 2 : i - 1;
    const c = text.charCodeAt(before);
    if ((c === 115 || c === 83) /* s S */ && AWS_SECRET_NAME.test(text.slice(Math.max(0, i - 14), i))) return true;
  }
  return false;
}

/** The AWS access key id prefixes (A3T?, AKIA, AGPA, AIDA, AROA, AIPA, ANPA, ANVA, ASIA) and 16 more characters. */
const AWS_KEY_ID = /^A(?:3T[A-Z0-9]|KIA|GPA|IDA|ROA|IPA|NPA|NVA|SIA)[A-Z0-9]{16}/;
/** Second letters of the prefixes: 3 K G I R N S. */
const AWS_SECOND = new Set([51, 75, 71, 73, 82, 78, 83]);
function awsKeyIdHit(text: string): boolean {
  for (let i = text.indexOf("A"); i !== -1; i = text.indexOf("A", i + 1)) {
    if (AWS_SECOND.has(text.charCodeAt(i + 1)) && AWS_KEY_ID.test(text.slice(i, i + 20))) return true;
  }
  return false;
}

function anchors(text: string, found: Found): boolean {
  return (
    underscoreHits(text, found) ||
    dashHits(text, found) ||
    dotHits(text, found) ||
    urlHits(text, found) ||
    ((awsKeyIdHit(text) || awsSecretHit(text, "k") || awsSecretHit(text, "K")) && found("aws")) ||
    (text.includes("dapi") && found("databricks"))
  );
}

const STOP: Found = () => true;

/** Whether `text` may hold a credential the scanner reports (a superset: see the header). */
export function mayHoldSecret(text: string): boolean {
  return anchors(text, STOP);
}

/** The rules (short ids, e.g. "github") whose anchors occur in `text`: the only ones that could report in it. */
export function candidateRules(text: string): Set<Rule> {
  const rules = new Set<Rule>();
  anchors(text, (rule) => {
    rules.add(rule);
    return false;
  });
  return rules;
}
