/**
 * The row list, filters, search, selection and keyboard (session-engine.md §16.1, §16.3, §16.6) over the
 * precomputed rows of export-data.ts.
 *
 * Contract (checked by the unit and e2e tests):
 * - Builds every node with `createElement`/`textContent`; session text never goes through
 *   `innerHTML`.
 * - The list is built once (one <li role="option"> per row); a filter or search only toggles
 *   `hidden`, so 10,000+ rows stay responsive. The filter bits and the lowercased searchable
 *   text come from the engine; this code only combines them (tokens split like `parseSearch`).
 * - Selection follows §16.3: the selected row if visible, else its nearest visible ancestor,
 *   else the last visible row. ↑/↓ move and wrap, ←/→ and PageUp/PageDown page, Home/End,
 *   Enter shows the path at once; moving with the keys shows it after a short pause.
 */
import { FLAG_ACTIVE, FLAG_FIRST_KEPT, FLAG_LEAF } from "../flags";
import { renderPath } from "./path";
import { addTag, data, el, emptyEl, filterEl, footerEl, listEl, N, rows, search, searchEl } from "./state";

const items: HTMLLIElement[] = [];
const visible = new Uint8Array(N);
let selected = -1;
let leafRow = -1;
let visibleCount = 0;
let pending: ReturnType<typeof setTimeout> | undefined;

function item(r: number): HTMLLIElement {
  const li = items[r];
  if (!li) throw new Error(`No row ${r}`);
  return li;
}

function buildList(): void {
  const frag = document.createDocumentFragment();
  rows.forEach((row, r) => {
    const flags = row[3];
    const li = el("li", `row k-${row[4]}${flags & FLAG_ACTIVE ? " on" : ""}`);
    li.id = `r${r}`;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    if (row[1] > 0) li.style.setProperty("--d", String(row[1]));
    const mark = el("span", "m");
    mark.setAttribute("aria-hidden", "true");
    li.appendChild(mark);
    li.appendChild(el("span", "t", row[5]));
    if (flags & FLAG_ACTIVE) li.appendChild(el("span", "sr", ", on the active path"));
    if (flags & FLAG_LEAF) {
      addTag(li, "current leaf");
      leafRow = r;
    }
    if (flags & FLAG_FIRST_KEPT) addTag(li, "first kept");
    items.push(li);
    frag.appendChild(li);
  });
  listEl.appendChild(frag);
}

function lastVisible(): number {
  for (let r = N - 1; r >= 0; r--) if (visible[r]) return r;
  return -1;
}
/** §16.3: the row itself, else its nearest visible ancestor, else the last visible row. */
function resolve(r: number): number {
  for (let a = r; a >= 0; a = rows[a]?.[2] ?? -1) if (visible[a]) return a;
  return lastVisible();
}
function visibleIndex(r: number): number {
  let n = 0;
  for (let i = 0; i < r; i++) n += visible[i] ?? 0;
  return n;
}
function updateFooter(): void {
  const f = data.filters[filterEl.selectedIndex] ?? data.filters[0];
  const pos = visibleCount > 0 && selected >= 0 ? `(${visibleIndex(selected) + 1}/${visibleCount})` : "(0/0)";
  footerEl.textContent = pos + (f ? f.tag : "");
}

function applyFilter(): void {
  const bit = 1 << Math.max(0, filterEl.selectedIndex);
  const tokens = searchEl.value.toLowerCase().split(/\s+/).filter(Boolean);
  let count = 0;
  rows.forEach((row, r) => {
    const text = search[r] ?? "";
    const v = (row[3] & bit) !== 0 && tokens.every((t) => text.includes(t));
    visible[r] = v ? 1 : 0;
    if (v) count++;
    const li = item(r);
    if (li.hidden === v) li.hidden = !v;
  });
  visibleCount = count;
  emptyEl.hidden = count > 0;
  const next = resolve(selected >= 0 ? selected : leafRow);
  const changed = next !== selected;
  select(next, false);
  if (changed) schedulePath();
}

function select(r: number, scroll: boolean): void {
  if (selected >= 0 && selected !== r) item(selected).setAttribute("aria-selected", "false");
  selected = r;
  if (r >= 0) {
    const li = item(r);
    li.setAttribute("aria-selected", "true");
    listEl.setAttribute("aria-activedescendant", li.id);
    if (scroll) li.scrollIntoView({ block: "nearest" });
  } else {
    listEl.removeAttribute("aria-activedescendant");
  }
  updateFooter();
}
function schedulePath(): void {
  clearTimeout(pending);
  pending = setTimeout(() => renderPath(selected), 60);
}
function showNow(r: number): void {
  clearTimeout(pending);
  select(r, true);
  renderPath(r);
}

/** The row that many visible rows away from the selection; only single steps wrap. */
function moveBy(steps: number): void {
  if (visibleCount === 0) return;
  let r = selected < 0 ? lastVisible() : selected;
  const dir = steps > 0 ? 1 : -1;
  const wrap = Math.abs(steps) === 1;
  let left = Math.abs(steps);
  let at = r;
  while (left > 0) {
    let n = at + dir;
    if (n < 0 || n >= N) {
      if (!wrap) break;
      n = dir > 0 ? 0 : N - 1;
    }
    at = n;
    if (visible[at]) {
      r = at;
      left--;
    }
    if (at === selected && left > 0 && wrap) break;
  }
  select(r, true);
  schedulePath();
}
function pageSize(): number {
  const first = selected >= 0 ? item(selected) : null;
  const h = first?.offsetHeight ? first.offsetHeight : 20;
  return Math.max(1, Math.floor(listEl.clientHeight / h) - 1);
}

function onListKey(ev: KeyboardEvent): void {
  const k = ev.key;
  if (k === "ArrowDown") moveBy(1);
  else if (k === "ArrowUp") moveBy(-1);
  else if (k === "ArrowRight" || k === "PageDown") moveBy(pageSize());
  else if (k === "ArrowLeft" || k === "PageUp") moveBy(-pageSize());
  else if (k === "Home") moveBy(-N);
  else if (k === "End") moveBy(N);
  else if (k === "Enter") {
    if (selected >= 0) showNow(selected);
  } else if (k === "/") searchEl.focus();
  else return;
  ev.preventDefault();
}
function onSearchKey(ev: KeyboardEvent): void {
  if (ev.key === "Escape" && searchEl.value) {
    searchEl.value = "";
    applyFilter();
  } else if (ev.key === "ArrowDown" || ev.key === "Enter") listEl.focus();
  else return;
  ev.preventDefault();
}

/** Builds the list, wires the controls, selects the leaf's row and shows its path. */
export function startTree(): void {
  buildList();
  listEl.addEventListener("click", (ev) => {
    const li = ev.target instanceof Element ? ev.target.closest("li.row") : null;
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
  if (selected >= 0) item(selected).scrollIntoView({ block: "center" });
  renderPath(selected);
}
