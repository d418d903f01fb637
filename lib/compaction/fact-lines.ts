/**
 * Which lines of a session are facts a compaction summary should carry, for the fact check
 * (fact-extract.ts; an Arbor extension, not part of the engine contract).
 * Pure: no network, disk or database access.
 *
 * - An error fact is the first line of a failed output that says what went wrong: one with an
 *   error word ("error", "failed", "No such file", "denied", an errno code such as ENOENT …).
 *   The lines a failed command prints before its error are not errors: the command's echo
 *   ("> pkg@1.0.0 check"), progress ("Running formatting…"), git's "To https://…", an empty
 *   "(no output)". A failed output without any such line gives no error fact: there is nothing in
 *   it a summary could be checked for. Counts of nothing ("0 errors", "no failures") are not errors,
 *   nor is a bare exit status ("Command exited with code 1"). An output wrapped in an error tag (`<tool_use_error>`) is an error message as a whole.
 * - A TODO fact is a line with TODO / FIXME / next / remaining / must that states something to
 *   do: not a question, not a lead-in that ends with a colon ("Suggested next steps:"), not an
 *   offer ("If you want, next I can …").
 */

const ERROR_WORDS =
  /\b(?:errors?|err!?|fail(?:s|ed|ure|ures|ing)?|fatal|exception|traceback|panic(?:ked)?|denied|refused|forbidden|unauthori[sz]ed|not found|no such|cannot|can't|could not|couldn't|unable|invalid|unknown|missing|undefined|not (?:set|allowed|permitted|defined|found|supported)|timed? ?out|timeout|exit(?:ed)? (?:with )?(?:code|status)|rejected|blocked|aborted|conflict|violation)\b/i;
/** errno-style codes (ENOENT, EACCES, EADDRINUSE): upper case only. */
const ERRNO = /\bE[A-Z]{3,}\b/;
const NOTHING_WRONG = /\b(?:0|no|zero|without) (?:errors?|failures?|failed|problems?)\b/i;
/** A bare exit status says that a command failed, not what went wrong. */
const BARE_EXIT = /^(?:the )?(?:command|process|script)?\s*(?:failed|exited)(?: with)?(?: exit)? (?:code|status) -?\d+\.?$/i;
/** Markup some agents wrap tool errors in (`<tool_use_error>…</tool_use_error>`). */
const TAG = /<\/?[A-Za-z_][\w-]*>/g;

/** Whether one line of a failed output says what went wrong (see the header). */
export function isErrorLine(line: string): boolean {
  const text = line.replace(TAG, " ").trim();
  if (text.length < 4 || NOTHING_WRONG.test(text) || BARE_EXIT.test(text)) return false;
  return ERROR_WORDS.test(text) || ERRNO.test(text);
}

/** An output that is an error message as a whole: its first line is the error, whatever its words. */
const ERROR_TAG = /^\s*<(?:tool_use_error|error)>/i;

/** The first line of `text` that says what went wrong, without wrapping tags; undefined when none does. */
export function errorLineOf(text: string): string | undefined {
  if (ERROR_TAG.test(text)) {
    const first = text.replace(TAG, "\n").split("\n").map((l) => l.trim()).find(Boolean);
    if (first) return first.replace(/\s+/g, " ");
  }
  for (const raw of text.split("\n")) {
    if (isErrorLine(raw)) return raw.replace(TAG, " ").replace(/\s+/g, " ").trim();
  }
  return undefined;
}

export const TODO_LINE = /\b(?:TODO|FIXME)\b|\b(?:next|remaining|must)\b/i;
const OFFER = /^(?:if you(?:'d)? (?:want|like)|let me know|would you like|do you want|want me to|shall i|should i)\b/i;

/** Whether a line of user or assistant prose is a TODO fact (see the header). */
export function isTodoLine(line: string): boolean {
  const l = line.trim();
  if (!l || !TODO_LINE.test(l)) return false;
  if (/\?["'”*)\]]*$/.test(l) || /:["'”*)\]]*$/.test(l)) return false;
  return !OFFER.test(l.replace(/^[*_>\s]+/, ""));
}
