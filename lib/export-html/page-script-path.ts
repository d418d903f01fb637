/**
 * Inline script, part 2: the path view. For the selected row it walks `parentId` links from
 * the entry to its root (like `pathToRoot`: a missing parent, a self-parent or a revisit ends
 * the walk) and renders the entries root first as a readable conversation.
 *
 * - user / assistant text as preformatted text; thinking, tool calls, tool results, bash and
 *   python runs in <details> whose body is built on first open (long sessions stay fast);
 * - compaction: tag "[compaction]", collapsed "Compacted from N tokens" + shortSummary,
 *   expanded the summary; branch summary: tag "[branch]", "Branch summary" (spec §16.7);
 * - spec §2 step 7 for the path's context: path entries before the last compaction's
 *   `firstKeptEntryId` (all entries before it when that id is not found before it) are
 *   tagged "not in the model's context".
 * Images: only a base64 `data:` URL with an image/png|jpeg|gif|webp type is shown (the CSP
 * allows `img-src data:` and nothing else); anything else, e.g. a blob reference, is text.
 * A long path shows its last 200 entries first, with a "Show … earlier entries" button, so a
 * 10,000-entry path costs no more to select than a short one.
 * Uses `el`/`addTag` and the state of page-script-tree.ts. No backtick, "${" or "</".
 */
export const PATH_SCRIPT = String.raw`
var pathEl = document.getElementById("path");
var pathTitleEl = document.getElementById("path-title");
var IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;
var BASE64 = /^[A-Za-z0-9+\/=\s]*$/;
/** Long paths render their last PATH_CHUNK entries; a button adds earlier ones on demand. */
var PATH_CHUNK = 200;

function isObj(v) { return typeof v === "object" && v !== null; }
function str(v) { return typeof v === "string" ? v : ""; }
function blocks(content) {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
}
function textOf(content) {
  return blocks(content).filter(function (b) { return b.type === "text"; }).map(function (b) { return str(b.text); }).join("");
}
function pre(parent, text) { if (text) parent.appendChild(el("pre", "", text)); }
function json(v) { try { return JSON.stringify(v, null, 2) || ""; } catch (err) { return String(v); } }

/** A <details> whose body is built by fill(body) the first time it is opened. */
function lazy(parent, summaryText, fill) {
  var d = el("details");
  d.appendChild(el("summary", "", summaryText));
  var filled = false;
  d.addEventListener("toggle", function () {
    if (!d.open || filled) return;
    filled = true;
    var body = el("div");
    fill(body);
    d.appendChild(body);
  });
  parent.appendChild(d);
  return d;
}
function image(parent, b) {
  var data = str(b.data), mime = str(b.mimeType);
  if (IMAGE_TYPES.test(mime) && data && BASE64.test(data)) {
    var img = el("img");
    img.alt = "image (" + mime + ")";
    img.src = "data:" + mime + ";base64," + data.replace(/\s/g, "");
    parent.appendChild(img);
  } else {
    parent.appendChild(el("p", "", "[image not available" + (mime ? ": " + mime : "") + "]"));
  }
}
function content(parent, c) {
  blocks(c).forEach(function (b) {
    if (b.type === "text") pre(parent, str(b.text));
    else if (b.type === "image") image(parent, b);
  });
}

function assistantBody(li, m) {
  blocks(m.content).forEach(function (b) {
    if (b.type === "text") pre(li, str(b.text));
    else if (b.type === "thinking") lazy(li, "Thinking", function (body) { pre(body, str(b.thinking)); });
    else if (b.type === "toolCall") lazy(li, "Tool call: " + str(b.name), function (body) { pre(body, json(b.arguments)); });
  });
  var stop = str(m.stopReason);
  if (stop && stop !== "stop" && stop !== "toolUse") {
    li.appendChild(el("p", "", "Stopped: " + stop + (m.errorMessage ? " \u2014 " + str(m.errorMessage) : "")));
  }
}
function messageItem(li, m, rowText) {
  var role = str(m.role);
  if (role === "user") content(li, m.content);
  else if (role === "assistant") assistantBody(li, m);
  else if (role === "toolResult") {
    var s = rowText + (m.isError ? " (error)" : "") + (m.prunedAt ? " (pruned)" : "");
    lazy(li, s, function (body) { content(body, m.content); });
  } else if (role === "bashExecution" || role === "pythonExecution") {
    var code = m.exitCode === undefined || m.exitCode === null ? "" : " (exit " + m.exitCode + ")";
    lazy(li, rowText + code + (m.cancelled ? " (cancelled)" : ""), function (body) {
      if (role === "pythonExecution") pre(body, str(m.code));
      pre(body, str(m.output) || "(no output)");
    });
  } else if (role === "custom" || role === "hookMessage") content(li, m.content);
  else if (role === "fileMention" && Array.isArray(m.files)) {
    m.files.filter(isObj).forEach(function (f) {
      lazy(li, "File: " + str(f.path), function (body) { pre(body, str(f.content) || str(f.skippedReason)); });
    });
  } else lazy(li, "Message", function (body) { pre(body, json(m)); });
}

var ROLE_NAMES = { user: "User", assistant: "Assistant", toolResult: "Tool result", bashExecution: "Bash", pythonExecution: "Python", fileMention: "File mention" };
function who(e, rowText) {
  if (e.type === "message" && isObj(e.message)) {
    var m = e.message, role = str(m.role);
    if (role === "assistant") return "Assistant" + (m.model ? " \u00b7 " + str(m.provider) + "/" + str(m.model) : "");
    if (role === "custom" || role === "hookMessage") return "[" + str(m.customType) + "]";
    return ROLE_NAMES[role] || "[" + role + "]";
  }
  if (e.type === "compaction") return "[compaction]";
  if (e.type === "branch_summary") return "[branch]";
  if (e.type === "custom_message") return "[" + str(e.customType) + "]";
  return rowText;
}

function renderItem(i, out, isSelected) {
  var e = entries[i], r = rowOfEntry[i];
  var rowText = r >= 0 ? rows[r][5] : "[" + str(e && e.type) + "]";
  var kind = r >= 0 ? rows[r][4] : "other";
  var li = el("li", "item k-" + kind + (out ? " out" : "") + (isSelected ? " sel" : ""));
  if (!isObj(e)) return li;
  var head = el("div", "who", who(e, rowText));
  if (e.timestamp) head.appendChild(el("span", "time", str(e.timestamp).replace("T", " ").slice(0, 19)));
  var label = labels.get(e.id);
  if (label) addTag(head, "label: " + label);
  if (r >= 0 && rows[r][3] & FLAG_LEAF) addTag(head, "current leaf");
  if (isSelected) addTag(head, "selected");
  if (out) addTag(head, "not in the model's context");
  li.appendChild(head);
  if (e.type === "message" && isObj(e.message)) messageItem(li, e.message, rowText);
  else if (e.type === "compaction") {
    var tokens = "Compacted from " + Number(e.tokensBefore || 0).toLocaleString() + " tokens";
    lazy(li, tokens + (e.shortSummary ? ": " + str(e.shortSummary) : ""), function (body) {
      body.appendChild(el("strong", "", tokens));
      pre(body, str(e.summary));
    });
  } else if (e.type === "branch_summary") {
    lazy(li, "Branch summary", function (body) {
      body.appendChild(el("strong", "", "Branch Summary"));
      pre(body, str(e.summary));
    });
  } else if (e.type === "custom_message") content(li, e.content);
  return li;
}

function pathTo(i) {
  var out = [], seen = new Set();
  while (i !== undefined && i >= 0 && !seen.has(i)) {
    seen.add(i);
    out.push(i);
    var e = entries[i], p = isObj(e) ? e.parentId : null;
    if (typeof p !== "string" || p === e.id) break;
    i = byId.get(p);
  }
  return out.reverse();
}
/** How many leading path entries the model does not see (spec §2 step 7). */
function notInContext(path) {
  for (var c = path.length - 1; c >= 0; c--) {
    var e = entries[path[c]];
    if (isObj(e) && e.type === "compaction") {
      for (var k = 0; k < c; k++) if (entries[path[k]].id === e.firstKeptEntryId) return k;
      return c;
    }
  }
  return 0;
}

/** Path items [from, to), preceded by a button that adds the previous chunk when from > 0. */
function renderRange(path, cut, from, to) {
  var frag = document.createDocumentFragment();
  if (from > 0) {
    var more = el("li", "more");
    var button = el("button", "", "Show " + Math.min(from, PATH_CHUNK).toLocaleString() + " earlier entries (" + from.toLocaleString() + " not shown)");
    button.type = "button";
    button.addEventListener("click", function () {
      var anchor = more.nextSibling;
      more.remove();
      pathEl.insertBefore(renderRange(path, cut, Math.max(0, from - PATH_CHUNK), from), anchor);
    });
    more.appendChild(button);
    frag.appendChild(more);
  }
  for (var k = from; k < to; k++) frag.appendChild(renderItem(path[k], k < cut, k === path.length - 1));
  return frag;
}

function renderPath(r) {
  pathEl.textContent = "";
  if (r < 0 || rows[r][0] < 0) {
    pathTitleEl.textContent = "Path";
    pathEl.appendChild(el("li", "empty", N === 0 ? data.emptyText : "Select an entry to see the path from the root to it."));
    return;
  }
  var path = pathTo(rows[r][0]), cut = notInContext(path);
  pathTitleEl.textContent = "Path from the root to the selected entry (" + path.length.toLocaleString() + (path.length === 1 ? " entry)" : " entries)");
  pathEl.appendChild(renderRange(path, cut, Math.max(0, path.length - PATH_CHUNK), path.length));
  var last = pathEl.lastElementChild;
  if (last) last.scrollIntoView({ block: "nearest" });
}
`;
