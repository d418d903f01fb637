/**
 * Row flag bits of the HTML export's embedded data, shared by the builder (export-data.ts) and
 * the page script (page/). Bits 0–4 are the filters (FILTERS order); these follow them.
 */
export const FLAG_ACTIVE = 1 << 5;
export const FLAG_LEAF = 1 << 6;
export const FLAG_FIRST_KEPT = 1 << 7;
