/**
 * Inline script, part 1: the row list, filters, search, selection and keyboard (spec §16.1,
 * §16.3, §16.6) over the precomputed rows of export-data.ts. Vanilla ES2020, no network.
 *
 * Contract (checked by the unit and e2e tests):
 * - Reads its data only with `JSON.parse` of the `#session-data` block and builds every node
 *   with `createElement`/`textContent`; session text never goes through `innerHTML`.
 * - The list is built once (one <li role="option"> per row); a filter or search only toggles
 *   `hidden`, so 10,000+ rows stay responsive. The filter bits and the lowercased searchable
 *   text come from the engine; this code only combines them (tokens split like `parseSearch`).
 * - Selection follows §16.3: the selected row if visible, else its nearest visible ancestor,
 *   else the last visible row. ↑/↓ move and wrap, ←/→ and PageUp/PageDown page, Home/End,
 *   Enter shows the path at once; moving with the keys shows it after a short pause.
 * Written as a plain string: it must contain no backtick, no "${" and no "</".
 */
import { FLAG_ACTIVE, FLAG_FIRST_KEPT, FLAG_LEAF } from "@/lib/export-html/export-data";

export const TREE_SCRIPT = String.raw`
var FLAG_ACTIVE = ${FLAG_ACTIVE}, FLAG_LEAF = ${FLAG_LEAF}, FLAG_FIRST_KEPT = ${FLAG_FIRST_KEPT};
var data = JSON.parse(document.getElementById("session-data").textContent);
var rows = data.rows, search = data.search, entries = data.entries;
var N = rows.length;
var listEl = document.getElementById("rows");
var filterEl = document.getElementById("filter");
var searchEl = document.getElementById("search");
var footerEl = document.getElementById("footer");
var emptyEl = document.getElementById("empty");
var items = new Array(N);
var visible = new Uint8Array(N);
var rowOfEntry = new Int32Array(entries.length).fill(-1);
var byId = new Map();
var labels = new Map(data.labels);
var selected = -1, leafRow = -1, visibleCount = 0, pending = 0;

function el(tag, cls, text) {
  var node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function addTag(parent, text) { parent.appendChild(el("span", "tag", text)); }

function buildList() {
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i];
    if (e && typeof e.id === "string") byId.set(e.id, i);
  }
  var frag = document.createDocumentFragment();
  for (var r = 0; r < N; r++) {
    var row = rows[r], flags = row[3];
    if (row[0] >= 0) rowOfEntry[row[0]] = r;
    var li = el("li", "row k-" + row[4] + (flags & FLAG_ACTIVE ? " on" : ""));
    li.id = "r" + r;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    if (row[1] > 0) li.style.setProperty("--d", String(row[1]));
    var mark = el("span", "m");
    mark.setAttribute("aria-hidden", "true");
    li.appendChild(mark);
    li.appendChild(el("span", "t", row[5]));
    if (flags & FLAG_ACTIVE) li.appendChild(el("span", "sr", ", on the active path"));
    if (flags & FLAG_LEAF) { addTag(li, "current leaf"); leafRow = r; }
    if (flags & FLAG_FIRST_KEPT) addTag(li, "first kept");
    items[r] = li;
    frag.appendChild(li);
  }
  listEl.appendChild(frag);
}

function lastVisible() {
  for (var r = N - 1; r >= 0; r--) if (visible[r]) return r;
  return -1;
}
/** §16.3: the row itself, else its nearest visible ancestor, else the last visible row. */
function resolve(r) {
  for (var a = r; a >= 0; a = rows[a][2]) if (visible[a]) return a;
  return lastVisible();
}
function visibleIndex(r) {
  var n = 0;
  for (var i = 0; i < r; i++) n += visible[i];
  return n;
}
function updateFooter() {
  var f = data.filters[filterEl.selectedIndex] || data.filters[0];
  var pos = visibleCount > 0 && selected >= 0 ? "(" + (visibleIndex(selected) + 1) + "/" + visibleCount + ")" : "(0/0)";
  footerEl.textContent = pos + f.tag;
}

function applyFilter() {
  var bit = 1 << Math.max(0, filterEl.selectedIndex);
  var tokens = searchEl.value.toLowerCase().split(/\s+/).filter(Boolean);
  var count = 0;
  for (var r = 0; r < N; r++) {
    var v = (rows[r][3] & bit) !== 0;
    for (var t = 0; v && t < tokens.length; t++) if (search[r].indexOf(tokens[t]) < 0) v = false;
    visible[r] = v ? 1 : 0;
    if (v) count++;
    if (items[r].hidden === v) items[r].hidden = !v;
  }
  visibleCount = count;
  emptyEl.hidden = count > 0;
  var next = resolve(selected >= 0 ? selected : leafRow);
  var changed = next !== selected;
  select(next, false);
  if (changed) schedulePath();
}

function select(r, scroll) {
  if (selected >= 0 && selected !== r) items[selected].setAttribute("aria-selected", "false");
  selected = r;
  if (r >= 0) {
    items[r].setAttribute("aria-selected", "true");
    listEl.setAttribute("aria-activedescendant", items[r].id);
    if (scroll) items[r].scrollIntoView({ block: "nearest" });
  } else {
    listEl.removeAttribute("aria-activedescendant");
  }
  updateFooter();
}
function schedulePath() {
  clearTimeout(pending);
  pending = setTimeout(function () { renderPath(selected); }, 60);
}
function showNow(r) {
  clearTimeout(pending);
  select(r, true);
  renderPath(r);
}

/** The row that many visible rows away from the selection; only single steps wrap. */
function moveBy(steps) {
  if (visibleCount === 0) return;
  var r = selected < 0 ? lastVisible() : selected;
  var dir = steps > 0 ? 1 : -1, left = Math.abs(steps), wrap = left === 1, at = r;
  while (left > 0) {
    var n = at + dir;
    if (n < 0 || n >= N) {
      if (!wrap) break;
      n = dir > 0 ? 0 : N - 1;
    }
    at = n;
    if (visible[at]) { r = at; left--; }
    if (at === selected && left > 0 && wrap) break;
  }
  select(r, true);
  schedulePath();
}
function pageSize() {
  var first = selected >= 0 ? items[selected] : null;
  var h = first && first.offsetHeight ? first.offsetHeight : 20;
  return Math.max(1, Math.floor(listEl.clientHeight / h) - 1);
}

function onListKey(ev) {
  var k = ev.key;
  if (k === "ArrowDown") moveBy(1);
  else if (k === "ArrowUp") moveBy(-1);
  else if (k === "ArrowRight" || k === "PageDown") moveBy(pageSize());
  else if (k === "ArrowLeft" || k === "PageUp") moveBy(-pageSize());
  else if (k === "Home") moveBy(-N);
  else if (k === "End") moveBy(N);
  else if (k === "Enter") { if (selected >= 0) showNow(selected); }
  else if (k === "/") searchEl.focus();
  else return;
  ev.preventDefault();
}
function onSearchKey(ev) {
  if (ev.key === "Escape" && searchEl.value) { searchEl.value = ""; applyFilter(); }
  else if (ev.key === "ArrowDown" || ev.key === "Enter") listEl.focus();
  else return;
  ev.preventDefault();
}

function start() {
  buildList();
  listEl.addEventListener("click", function (ev) {
    var li = ev.target instanceof Element ? ev.target.closest("li.row") : null;
    if (!li) return;
    showNow(Number(li.id.slice(1)));
    listEl.focus();
  });
  listEl.addEventListener("keydown", onListKey);
  searchEl.addEventListener("keydown", onSearchKey);
  searchEl.addEventListener("input", applyFilter);
  filterEl.addEventListener("change", applyFilter);
  applyFilter();
  clearTimeout(pending);
  if (selected >= 0) items[selected].scrollIntoView({ block: "center" });
  renderPath(selected);
}
`;
