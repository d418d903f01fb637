/**
 * How deeply a server action's arguments may nest. Next decodes a server action's body with
 * React's `decodeReply`, which recurses per level: a body nested a few thousand levels deep
 * overflows the stack inside Next, before any action code runs, and the request ends as a 500.
 * proxy.ts refuses such a body first (400), counting on the text — arrays and objects, not
 * brackets inside strings — so nothing is parsed. Arbor's actions take flat objects; imports
 * allow the same depth per line (lib/session/file/jsonl.ts MAX_JSON_DEPTH). Pure.
 */
import { MAX_JSON_DEPTH } from "@/lib/session/file/jsonl";

export const MAX_ACTION_NESTING = MAX_JSON_DEPTH;

/** True when arrays and objects in `text` nest more than `max` levels (strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth -= 1;
  }
  return false;
}
