/**
 * Masking: what replaces a found secret wherever it leaves Arbor. Pure and browser-safe (no
 * secretlint): the server masks what the scanner finds (index.ts maskSecrets), the browser
 * masks with the findings the page already has (`maskWithFindings`, the inspector's copy).
 *
 * A mask keeps what names the credential and nothing that could be used: a type prefix such as
 * "ghp_", "sk-ant-api03-", "xoxb-" or "AKIA", then "********", then the last four characters
 * when the secret is 24 characters or longer (as GitHub and AWS show keys), so two keys can be
 * told apart. A private key keeps its BEGIN and END lines. A URL keeps its origin.
 */
import type { ValueFinding } from "./types";

const STARS = "********";
/**
 * The type markers the scanner's token rules start with (candidates.ts lists them by rule). Only
 * these are shown: a password or an unmarked key shows no prefix at all.
 */
const TYPE_PREFIX =
  /^(?:gh[pousr]_|github_pat_|npm_|xox[bpaor]-|xapp-|sk-ant-api\d\d-|sk-(?:proj|svcacct|admin)-|sk-|[sr]k_(?:live|test)_|shp(?:pa|ca|at|ss)_|glpat-|glc_|glsa_|gsk_|hf_|lin_api_|ntn_|ops_|vc[pikar]_|dckr_pat_|figd_|cf(?:k|ut|at)_|tskey-[a-z]{2,20}-|hv[sbr]\.|SG\.|dapi|A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)/;
const PEM = /^(-----BEGIN[^\n\\-]*-----)[\s\S]*?(-----END[^\n\\-]*-----)?$/;
const URL_ORIGIN = /^([a-z][a-z0-9+.-]*:\/\/[^/\s]+)/i;

/** The masked form of one secret (the text a finding's range is replaced with). */
export function maskValue(secret: string): string {
  const pem = PEM.exec(secret);
  if (pem?.[1]) return `${pem[1]}\n${STARS} (private key masked)\n${pem[2] ?? ""}`.trimEnd();
  const url = URL_ORIGIN.exec(secret);
  if (url?.[1]) return `${url[1]}/${STARS}`;
  const prefix = TYPE_PREFIX.exec(secret)?.[0] ?? "";
  const visible = prefix.length <= secret.length - 8 ? prefix : "";
  const tail = secret.length >= 24 ? secret.slice(-4) : "";
  return `${visible}${STARS}${tail}`;
}

/**
 * What the session page lists for a secret found at `start`–`end` of `text`: its mask, and for
 * a password inside a URL the URL around it (user and host are not the secret).
 */
export function maskedPreview(text: string, start: number, end: number): string {
  const masked = maskValue(text.slice(start, end));
  const before = text.slice(Math.max(0, start - 200), start);
  const scheme = /[a-z][a-z0-9+.-]*:\/\/[^:@/\s]*:$/i.exec(before);
  if (!scheme) return masked;
  const host = /^@[^/\s"'`<>]*/.exec(text.slice(end, end + 200))?.[0] ?? "";
  return `${scheme[0]}${masked}${host}`;
}

/** `text` with each range replaced by its mask (ranges sorted and disjoint, as the scanner gives them). */
export function maskRanges(text: string, ranges: readonly { start: number; end: number }[]): string {
  let out = "";
  let at = 0;
  for (const r of ranges) {
    if (r.start < at || r.end > text.length) continue;
    out += text.slice(at, r.start) + maskValue(text.slice(r.start, r.end));
    at = r.end;
  }
  return out + text.slice(at);
}

/** The JSON Pointer of a path (RFC 6901: "~" as "~0", "/" as "~1"). */
export function toPointer(path: readonly (string | number)[]): string {
  return path.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

function fromPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
}

type Span = Pick<ValueFinding, "path" | "start" | "end">;

/**
 * A copy of `value` with every finding's range masked (findings of other values are the
 * caller's to leave out). Only the strings that hold findings are copied along their path;
 * a finding whose string is gone or shorter than its range is skipped.
 */
export function maskWithFindings<T>(value: T, findings: readonly Span[]): T {
  const byPath = new Map<string, { start: number; end: number }[]>();
  for (const f of findings) byPath.set(f.path, [...(byPath.get(f.path) ?? []), { start: f.start, end: f.end }]);
  let out: unknown = value;
  for (const [pointer, ranges] of byPath) {
    ranges.sort((a, b) => a.start - b.start);
    out = replaceAt(out, fromPointer(pointer), (s) => maskRanges(s, ranges));
  }
  return out as T;
}

/** `value` with the string at `path` replaced by `fn(string)`, copying only the containers on the path. */
function replaceAt(value: unknown, path: readonly string[], fn: (s: string) => string): unknown {
  if (path.length === 0) return typeof value === "string" ? fn(value) : value;
  if (typeof value !== "object" || value === null) return value;
  const [key, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(value, key)) return value;
  const child = (value as Record<string, unknown>)[key];
  const next = replaceAt(child, rest, fn);
  if (next === child) return value;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(key)] = next;
    return copy;
  }
  return { ...(value as Record<string, unknown>), [key]: next };
}

/**
 * An entry as stored, masked with the findings stored for it (the browser's copy of an entry).
 * A tool result that was pruned since no longer holds what was found in its content
 * (session-engine.md §8: the content is the prune notice; the store keeps the original), so
 * those findings are left out rather than masking the notice.
 */
export function maskEntryWithFindings<T>(entry: T, findings: readonly Span[]): T {
  const message = (entry as { message?: { prunedAt?: unknown } } | null)?.message;
  const pruned = message?.prunedAt !== undefined;
  return maskWithFindings(entry, pruned ? findings.filter((f) => !f.path.startsWith("/message/content/")) : findings);
}
