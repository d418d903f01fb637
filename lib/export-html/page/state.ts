/**
 * The page's data and elements, read once when the script starts (it is the last element of
 * <body>). The data comes only from `JSON.parse` of the `#session-data` block (export-data.ts);
 * entries are treated as untrusted JSON, so every field is checked before use.
 */
import type { ExportData } from "../export-data";

export type Json = Record<string, unknown>;

/** The embedded data as the page reads it: the entries are untrusted JSON. */
export type PageData = Omit<ExportData, "entries" | "header"> & { entries: unknown[] };

function element<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`The export page has no #${id}`);
  return node as T;
}

export const data = JSON.parse(element("session-data").textContent ?? "null") as PageData;
export const { rows, search, entries } = data;
export const N = rows.length;
export const labels = new Map(data.labels);

export const listEl = element<HTMLUListElement>("rows");
export const filterEl = element<HTMLSelectElement>("filter");
export const searchEl = element<HTMLInputElement>("search");
export const footerEl = element("footer");
export const emptyEl = element("empty");
export const pathEl = element<HTMLOListElement>("path");
export const pathTitleEl = element("path-title");

export function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null;
}
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Entry index by entry id, and row index by entry index (-1 when the entry has no row). */
export const byId = new Map<string, number>();
export const rowOfEntry = new Int32Array(entries.length).fill(-1);
entries.forEach((e, i) => {
  if (isObj(e) && typeof e.id === "string") byId.set(e.id, i);
});
rows.forEach((row, r) => {
  if (row[0] >= 0) rowOfEntry[row[0]] = r;
});

/** A new element with an optional class and text; text only ever goes in as textContent. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
export function addTag(parent: HTMLElement, text: string): void {
  parent.appendChild(el("span", "tag", text));
}
