/**
 * Where the canvas's captions go, in SCREEN space (fixed size at every zoom, so they stay
 * readable at Fit view; ui.md "visual language"): landmarks (landmarks.ts) and the map's turn
 * captions (map-captions.ts). Pure: no React, no DOM.
 *
 * Contract:
 * - Captions are placed one by one, most important first (lower `priority`, then higher on the
 *   screen), at the first free spot of `candidateSpots` (a landmark beside its node, right or
 *   left, level or nudged up to four rows; a turn's prompt caption only right of its card, level): inside the pane, overlapping no caption
 *   placed before and no obstacle (the cards in view, the minimap, the zoom buttons). Labels are
 *   placed, never stacked: one with no free spot gets no caption.
 * - A caption whose last part is a prompt or a `when` detail may be shortened to fit (widths
 *   PROMPT_WIDTHS; a `when` detail may also be left out): its width is then smaller than
 *   `captionWidth` and the text is cut with "…" by the caption's CSS (the placed landmark is the
 *   form drawn).
 *   Every placed caption's box is exactly `width` × CAPTION_HEIGHT (the DOM caption is that size).
 * - Landmarks outside the viewport are listed as `above` / `below` (the nearest of each kind,
 *   the most important first) for the edge indicators; prompt captions never are.
 */
import { type Landmark, partPriority as PART_PRIORITY } from "@/components/tree/model/landmarks";

/** A node's rectangle on screen (pane pixels). */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedCaption {
  landmark: Landmark;
  x: number;
  y: number;
  width: number;
}

export interface Placement {
  captions: PlacedCaption[];
  above: Landmark[];
  below: Landmark[];
}

/** Caption pill height and an estimate of its width (13 px text, an upper bound of the glyphs' advance). */
export const CAPTION_HEIGHT = 22;
const CHAR_WIDTH = 7.9;
const PART_PAD = 14;
const PART_GAP = 4;
const GAP = 8;
/** Shorter widths a prompt caption may take when the full one does not fit (px). */
const PROMPT_WIDTHS = [240, 180, 130, 90, 60];

export function partWidth(text: string): number {
  return Math.ceil(text.length * CHAR_WIDTH + PART_PAD);
}

export function captionWidth(l: Landmark): number {
  return l.parts.reduce((w, p) => w + partWidth(p.text), 0) + (l.parts.length - 1) * PART_GAP;
}

/**
 * The forms a caption may take, widest first: whole; a last part that is a prompt or a `when`
 * detail cut shorter (PROMPT_WIDTHS); a `when` detail left out.
 */
function formsOf(l: Landmark): { landmark: Landmark; width: number }[] {
  const full = captionWidth(l);
  const last = l.parts.at(-1);
  if (last?.kind !== "prompt" && last?.kind !== "when") return [{ landmark: l, width: full }, ...reducedForms(l)];
  const others = full - partWidth(last.text);
  const out = [full, ...PROMPT_WIDTHS.map((w) => others + w).filter((w) => w < full)].map((width) => ({ landmark: l, width }));
  if (last.kind === "when" && l.parts.length > 1) out.push({ landmark: { ...l, parts: l.parts.slice(0, -1) }, width: others - PART_GAP });
  return [...out, ...reducedForms(l)];
}

/**
 * Last resorts for a caption with several parts that fits nowhere whole (a short pane, a crowded
 * column): its most important parts only, dropping the least important one at a time down to a
 * single part, so "you are here" and a compaction's own part are still drawn where the details
 * beside them have no room.
 */
function reducedForms(l: Landmark): { landmark: Landmark; width: number }[] {
  if (l.parts.length < 2) return [];
  const ranked = l.parts.map((p, i) => ({ p, i })).sort((a, b) => PART_PRIORITY(a.p.kind) - PART_PRIORITY(b.p.kind) || a.i - b.i);
  const out: { landmark: Landmark; width: number }[] = [];
  for (let keep = l.parts.length - 1; keep >= 1; keep--) {
    const parts = ranked
      .slice(0, keep)
      .sort((a, b) => a.i - b.i)
      .map((e) => e.p);
    const landmark = { ...l, parts };
    out.push({ landmark, width: captionWidth(landmark) });
  }
  return out;
}

/**
 * Where a caption may go, best first: zoomed in, just above the node; else beside it (right,
 * then left), vertically centred, then nudged up to four caption heights up or down (close
 * landmarks, like a compaction and its first-kept entry at Fit view, then both stay readable).
 */
function candidateSpots(box: ScreenBox, width: number, aboveNode: boolean, prompt: boolean): [number, number][] {
  const cy = Math.round(box.y + box.height / 2 - CAPTION_HEIGHT / 2);
  const right = Math.round(box.x + box.width + GAP);
  const left = Math.round(box.x - GAP - width);
  const out: [number, number][] = aboveNode ? [[Math.round(Math.max(0, box.x)), Math.round(box.y - CAPTION_HEIGHT - 2)]] : [];
  // A turn's caption only right beside its card: in the lane to the right of its slab, level with
  // it, it cannot be read as the next slab's or the next row's (wrap-layout.ts).
  if (prompt) return aboveNode ? out : [[right, cy]];
  for (const dy of [0, -1, 1, -2, 2, -3, 3, -4, 4]) {
    const y = cy + dy * (CAPTION_HEIGHT + 2);
    out.push([right, y], [left, y]);
  }
  return out;
}

/** Boxes bucketed by a coarse grid, so a spot is checked against the few boxes near it. */
class BoxGrid {
  private readonly cells = new Map<number, ScreenBox[]>();
  private static readonly CELL = 64;

  private static key(cx: number, cy: number): number {
    return (cx + 4096) * 16384 + (cy + 4096);
  }

  add(b: ScreenBox): void {
    const C = BoxGrid.CELL;
    const [x0, x1] = [Math.floor(b.x / C), Math.floor((b.x + b.width) / C)];
    const [y0, y1] = [Math.floor(b.y / C), Math.floor((b.y + b.height) / C)];
    for (let cx = x0; cx <= x1; cx++)
      for (let cy = y0; cy <= y1; cy++) {
        const k = BoxGrid.key(cx, cy);
        const list = this.cells.get(k);
        if (list) list.push(b);
        else this.cells.set(k, [b]);
      }
  }

  hits(x: number, y: number, width: number, height: number): boolean {
    const C = BoxGrid.CELL;
    for (let cx = Math.floor(x / C); cx <= Math.floor((x + width) / C); cx++)
      for (let cy = Math.floor(y / C); cy <= Math.floor((y + height) / C); cy++) {
        const list = this.cells.get(BoxGrid.key(cx, cy));
        if (!list) continue;
        for (const b of list) if (b.x < x + width && x < b.x + b.width && b.y < y + height && y < b.y + b.height) return true;
      }
    return false;
  }
}

export interface PlaceOptions {
  /** Zoomed in: the gap between rows is taller than a caption, so one may sit above its node. */
  aboveNode?: boolean;
  maxCaptions?: number;
  /** Screen boxes no caption may cover: the cards in view, the minimap, the zoom buttons. */
  obstacles?: readonly ScreenBox[];
}

/**
 * Places captions for `landmarks` (boxOf: the node's screen box, or undefined when not laid
 * out) in a pane of `width` × `height` (see the module contract).
 */
export function placeLandmarks(
  landmarks: readonly Landmark[],
  boxOf: (l: Landmark) => ScreenBox | undefined,
  pane: { width: number; height: number },
  opts: PlaceOptions = {},
): Placement {
  const maxCaptions = opts.maxCaptions ?? 120;
  const above: { l: Landmark; d: number }[] = [];
  const below: { l: Landmark; d: number }[] = [];
  const candidates: { l: Landmark; box: ScreenBox }[] = [];
  for (const l of landmarks) {
    const box = boxOf(l);
    if (!box) continue;
    const cy = box.y + box.height / 2;
    const prompt = l.parts.at(-1)?.kind === "prompt";
    if (cy < 0) {
      if (!prompt) above.push({ l, d: -cy });
    } else if (cy > pane.height) {
      if (!prompt) below.push({ l, d: cy - pane.height });
    } else if (box.x + box.width >= 0 && box.x <= pane.width) candidates.push({ l, box });
  }
  candidates.sort((a, b) => a.l.priority - b.l.priority || a.box.y - b.box.y);
  const blocked = new BoxGrid();
  for (const o of opts.obstacles ?? []) blocked.add(o);
  const placed: PlacedCaption[] = [];
  for (const { l, box } of candidates) {
    if (placed.length >= maxCaptions) break;
    const free = (x: number, y: number, width: number) =>
      x >= 0 && x + width <= pane.width && y >= 0 && y + CAPTION_HEIGHT <= pane.height && !blocked.hits(x, y, width, CAPTION_HEIGHT);
    let spot: PlacedCaption | undefined;
    for (const form of formsOf(l)) {
      const { width } = form;
      const at = candidateSpots(box, width, opts.aboveNode === true, l.parts.at(-1)?.kind === "prompt").find(([x, y]) => free(x, y, width));
      if (at) {
        spot = { landmark: form.landmark, x: at[0], y: at[1], width };
        break;
      }
    }
    if (!spot) continue;
    placed.push(spot);
    blocked.add({ x: spot.x, y: spot.y, width: spot.width, height: CAPTION_HEIGHT });
  }
  // Per edge: the nearest landmark of each kind, the most important first.
  const nearest = (list: { l: Landmark; d: number }[]) => {
    const seen = new Set<string>();
    return list
      .sort((a, b) => a.d - b.d)
      .filter(({ l }) => {
        const kind = l.parts[0]!.kind;
        if (seen.has(kind)) return false;
        seen.add(kind);
        return true;
      })
      .sort((a, b) => a.l.priority - b.l.priority || a.d - b.d)
      .map((e) => e.l);
  };
  return { captions: placed, above: nearest(above), below: nearest(below) };
}
