/**
 * Text normalisation and matching for the compaction fact check (fact-extract.ts, fact-check.ts).
 * Pure: no network, disk or database access.
 *
 * Contract: a fact's `key` and the summary go through the same `normalizeText`, so a fact is
 * matched regardless of case, quoting (backticks, single or double quotes) and runs of
 * whitespace. Paths are made relative to the session's cwd on both sides first, so
 * `/home/me/app/src/a.ts` in a tool call matches `src/a.ts` in the summary.
 */

/** Quote-like characters a summary may or may not put around a fact. */
const QUOTES = /[`'"\u2018\u2019\u201c\u201d]/g;

/** Words too common to count as evidence that a sentence was carried. */
const STOPWORDS = new Set(
  "the and for that this with from into then than them they you your our are was were have has had not but all any can will would should could just also its it's use using when what which who how why where there here out about some more most only very make sure please".split(
    " ",
  ),
);

/** `path` relative to `cwd` when it lies inside it; `./` prefixes dropped. */
export function relativePath(path: string, cwd: string | undefined): string {
  let p = path.trim();
  const root = cwd?.replace(/\/+$/, "");
  if (root && (p === root || p.startsWith(`${root}/`))) p = p.slice(root.length + 1) || ".";
  while (p.startsWith("./")) p = p.slice(2);
  return p;
}

/** Lowercase, quotes removed, whitespace collapsed; absolute paths under `cwd` made relative. */
export function normalizeText(text: string, cwd?: string): string {
  let t = text;
  const root = cwd?.replace(/\/+$/, "");
  if (root && root.length > 1) t = t.split(`${root}/`).join("");
  return t.replace(QUOTES, " ").toLowerCase().replace(/\s+/g, " ").trim();
}

const isWordChar = (c: string | undefined) => c !== undefined && /[a-z0-9_]/.test(c);

/**
 * Whether `needle` occurs in `hay` as a whole token: the characters around the match are not
 * letters, digits or `_` (so `5ms` is not found in `15ms`, nor `a.ts` in `a.tsx`).
 */
export function containsToken(hay: string, needle: string): boolean {
  if (!needle) return false;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = hay[at - 1];
    const after = hay[at + needle.length];
    const edgeStart = !isWordChar(needle[0]) || !isWordChar(before);
    const edgeEnd = !isWordChar(needle[needle.length - 1]) || !isWordChar(after);
    if (edgeStart && edgeEnd) return true;
  }
  return false;
}

/** The content words of a normalised sentence (3+ characters, no stopwords). */
export function contentWords(normalized: string): string[] {
  const words = normalized.match(/[a-z0-9_][a-z0-9_./-]*[a-z0-9_]|[a-z0-9_]/g) ?? [];
  return [...new Set(words.filter((w) => w.length >= 3 && !STOPWORDS.has(w)))];
}

/**
 * Share (0–1) of a sentence's content words that the summary contains. Sentence-like facts
 * (instructions, TODO lines, errors) are rarely copied verbatim, so they are matched by words.
 */
export function wordCoverage(sentence: string, summaryWords: ReadonlySet<string>): number {
  const words = contentWords(sentence);
  if (words.length === 0) return 0;
  let hit = 0;
  for (const w of words) if (summaryWords.has(w)) hit++;
  return hit / words.length;
}
