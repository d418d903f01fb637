/**
 * The path view. For the selected row it walks `parentId` links from the entry to its root
 * (like `pathToRoot`: a missing parent, a self-parent or a revisit ends the walk) and renders the
 * entries root first as a readable conversation.
 *
 * - user / assistant text as preformatted text; thinking, tool calls, tool results, bash and
 *   python runs in <details> whose body is built on first open (long sessions stay fast);
 * - compaction: tag "[compaction]", collapsed "Compacted from N tokens" + shortSummary,
 *   expanded the summary; branch summary: tag "[branch]", "Branch summary" (session-engine.md §16.7);
 * - session-engine.md §2 step 7 for the path's context: path entries before the last compaction's
 *   `firstKeptEntryId` (all entries before it when that id is not found before it) are
 *   tagged "not in the model's context".
 * Images: only a base64 `data:` URL with an image/png|jpeg|gif|webp type is shown (the CSP
 * allows `img-src data:` and nothing else); anything else, e.g. a blob reference, is text.
 * A long path shows its last 200 entries first, with a "Show … earlier entries" button, so a
 * 10,000-entry path costs no more to select than a short one.
 */
import { FLAG_LEAF } from "../flags";
import { addTag, byId, data, el, entries, isObj, type Json, labels, N, pathEl, pathTitleEl, rowOfEntry, rows, str } from "./state";

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;
/** Long paths render their last PATH_CHUNK entries; a button adds earlier ones on demand. */
const PATH_CHUNK = 200;

function blocks(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
}
function pre(parent: HTMLElement, text: string): void {
  if (text) parent.appendChild(el("pre", "", text));
}
function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) || "";
  } catch {
    return String(v);
  }
}

/** A <details> whose body is built by fill(body) the first time it is opened. */
function lazy(parent: HTMLElement, summaryText: string, fill: (body: HTMLElement) => void): void {
  const d = el("details");
  d.appendChild(el("summary", "", summaryText));
  let filled = false;
  d.addEventListener("toggle", () => {
    if (!d.open || filled) return;
    filled = true;
    const body = el("div");
    fill(body);
    d.appendChild(body);
  });
  parent.appendChild(d);
}
function image(parent: HTMLElement, b: Json): void {
  const payload = str(b.data);
  const mime = str(b.mimeType);
  if (IMAGE_TYPES.test(mime) && payload && BASE64.test(payload)) {
    const img = el("img");
    img.alt = `image (${mime})`;
    img.src = `data:${mime};base64,${payload.replace(/\s/g, "")}`;
    parent.appendChild(img);
  } else {
    parent.appendChild(el("p", "", `[image not available${mime ? `: ${mime}` : ""}]`));
  }
}
function content(parent: HTMLElement, c: unknown): void {
  for (const b of blocks(c)) {
    if (b.type === "text") pre(parent, str(b.text));
    else if (b.type === "image") image(parent, b);
  }
}

function assistantBody(li: HTMLElement, m: Json): void {
  for (const b of blocks(m.content)) {
    if (b.type === "text") pre(li, str(b.text));
    else if (b.type === "thinking") lazy(li, "Thinking", (body) => pre(body, str(b.thinking)));
    else if (b.type === "toolCall") lazy(li, `Tool call: ${str(b.name)}`, (body) => pre(body, json(b.arguments)));
  }
  const stop = str(m.stopReason);
  if (stop && stop !== "stop" && stop !== "toolUse") {
    li.appendChild(el("p", "", `Stopped: ${stop}${m.errorMessage ? ` \u2014 ${str(m.errorMessage)}` : ""}`));
  }
}
function messageItem(li: HTMLElement, m: Json, rowText: string): void {
  const role = str(m.role);
  if (role === "user") content(li, m.content);
  else if (role === "assistant") assistantBody(li, m);
  else if (role === "toolResult") {
    const s = rowText + (m.isError ? " (error)" : "") + (m.prunedAt ? " (pruned)" : "");
    lazy(li, s, (body) => content(body, m.content));
  } else if (role === "bashExecution" || role === "pythonExecution") {
    const code = m.exitCode === undefined || m.exitCode === null ? "" : ` (exit ${String(m.exitCode)})`;
    lazy(li, rowText + code + (m.cancelled ? " (cancelled)" : ""), (body) => {
      if (role === "pythonExecution") pre(body, str(m.code));
      pre(body, str(m.output) || "(no output)");
    });
  } else if (role === "custom" || role === "hookMessage") content(li, m.content);
  else if (role === "fileMention" && Array.isArray(m.files)) {
    for (const f of m.files.filter(isObj)) {
      lazy(li, `File: ${str(f.path)}`, (body) => pre(body, str(f.content) || str(f.skippedReason)));
    }
  } else lazy(li, "Message", (body) => pre(body, json(m)));
}

const ROLE_NAMES: Record<string, string> = {
  user: "User",
  assistant: "Assistant",
  toolResult: "Tool result",
  bashExecution: "Bash",
  pythonExecution: "Python",
  fileMention: "File mention",
};
function who(e: Json, rowText: string): string {
  if (e.type === "message" && isObj(e.message)) {
    const m = e.message;
    const role = str(m.role);
    if (role === "assistant") return `Assistant${m.model ? ` \u00b7 ${str(m.provider)}/${str(m.model)}` : ""}`;
    if (role === "custom" || role === "hookMessage") return `[${str(m.customType)}]`;
    return ROLE_NAMES[role] || `[${role}]`;
  }
  if (e.type === "compaction") return "[compaction]";
  if (e.type === "branch_summary") return "[branch]";
  if (e.type === "custom_message") return `[${str(e.customType)}]`;
  return rowText;
}

function renderItem(i: number, out: boolean, isSelected: boolean): HTMLLIElement {
  const e = entries[i];
  const r = rowOfEntry[i] ?? -1;
  const row = rows[r];
  const rowText = row ? row[5] : `[${str(isObj(e) ? e.type : undefined)}]`;
  const kind = row ? row[4] : "other";
  const li = el("li", `item k-${kind}${out ? " out" : ""}${isSelected ? " sel" : ""}`);
  if (!isObj(e)) return li;
  const head = el("div", "who", who(e, rowText));
  if (e.timestamp) head.appendChild(el("span", "time", str(e.timestamp).replace("T", " ").slice(0, 19)));
  const label = labels.get(str(e.id));
  if (label) addTag(head, `label: ${label}`);
  if (row && row[3] & FLAG_LEAF) addTag(head, "current leaf");
  if (isSelected) addTag(head, "selected");
  if (out) addTag(head, "not in the model's context");
  li.appendChild(head);
  if (e.type === "message" && isObj(e.message)) messageItem(li, e.message, rowText);
  else if (e.type === "compaction") {
    const tokens = `Compacted from ${Number(e.tokensBefore || 0).toLocaleString()} tokens`;
    lazy(li, tokens + (e.shortSummary ? `: ${str(e.shortSummary)}` : ""), (body) => {
      body.appendChild(el("strong", "", tokens));
      pre(body, str(e.summary));
    });
  } else if (e.type === "branch_summary") {
    lazy(li, "Branch summary", (body) => {
      body.appendChild(el("strong", "", "Branch Summary"));
      pre(body, str(e.summary));
    });
  } else if (e.type === "custom_message") content(li, e.content);
  return li;
}

function pathTo(start: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  let i: number | undefined = start;
  while (i !== undefined && i >= 0 && !seen.has(i)) {
    seen.add(i);
    out.push(i);
    const e = entries[i];
    const p = isObj(e) ? e.parentId : null;
    if (typeof p !== "string" || !isObj(e) || p === e.id) break;
    i = byId.get(p);
  }
  return out.reverse();
}
/** How many leading path entries the model does not see (session-engine.md §2 step 7). */
function notInContext(path: number[]): number {
  for (let c = path.length - 1; c >= 0; c--) {
    const e = entries[path[c] ?? -1];
    if (isObj(e) && e.type === "compaction") {
      for (let k = 0; k < c; k++) {
        const kept = entries[path[k] ?? -1];
        if (isObj(kept) && kept.id === e.firstKeptEntryId) return k;
      }
      return c;
    }
  }
  return 0;
}

/** Path items [from, to), preceded by a button that adds the previous chunk when from > 0. */
function renderRange(path: number[], cut: number, from: number, to: number): DocumentFragment {
  const frag = document.createDocumentFragment();
  if (from > 0) {
    const more = el("li", "more");
    const button = el("button", "", `Show ${Math.min(from, PATH_CHUNK).toLocaleString()} earlier entries (${from.toLocaleString()} not shown)`);
    button.type = "button";
    button.addEventListener("click", () => {
      const anchor = more.nextSibling;
      more.remove();
      pathEl.insertBefore(renderRange(path, cut, Math.max(0, from - PATH_CHUNK), from), anchor);
    });
    more.appendChild(button);
    frag.appendChild(more);
  }
  for (let k = from; k < to; k++) frag.appendChild(renderItem(path[k] ?? -1, k < cut, k === path.length - 1));
  return frag;
}

/** Shows the path from the root to row `r`'s entry (or a hint when nothing is selected). */
export function renderPath(r: number): void {
  pathEl.textContent = "";
  const row = rows[r];
  if (!row || row[0] < 0) {
    pathTitleEl.textContent = "Path";
    pathEl.appendChild(el("li", "empty", N === 0 ? data.emptyText : "Select an entry to see the path from the root to it."));
    return;
  }
  const path = pathTo(row[0]);
  const cut = notInContext(path);
  pathTitleEl.textContent = `Path from the root to the selected entry (${path.length.toLocaleString()}${path.length === 1 ? " entry)" : " entries)"}`;
  pathEl.appendChild(renderRange(path, cut, Math.max(0, path.length - PATH_CHUNK), path.length));
  pathEl.lastElementChild?.scrollIntoView({ block: "nearest" });
}
