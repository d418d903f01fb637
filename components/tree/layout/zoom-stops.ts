/**
 * The zoom levels "+" and "−" step between (ui.md "A map of a real session"): each one shows
 * something new — Fit view (the whole map), the map with its captions, cards readable, the
 * entries (the overview's turns in view expand at 100%), and closer. Not 1.2× a click.
 * Pure: no React, no DOM.
 */

/** The map with captions, cards readable, turn cards crisp, entries (DETAIL_ZOOM), close reading. */
const STOPS = [0.3, 0.6, 0.85, 1, 1.5, 2];
/** A step must change the zoom by more than this factor (no step to where it already is). */
const MIN_STEP = 1.04;

/** The stops for a canvas whose Fit view zoom is `fit`, within [min, max], ascending. */
export function zoomStops(fit: number, min: number, max: number): number[] {
  const all = [fit, ...STOPS.filter((z) => z > fit * MIN_STEP)].map((z) => Math.min(max, Math.max(min, z)));
  return [...new Set(all)].sort((a, b) => a - b);
}

/** The next stop in (`+1`) or out (`-1`) from `zoom`; undefined at the end. */
export function nextZoomStop(stops: readonly number[], zoom: number, dir: 1 | -1): number | undefined {
  if (dir > 0) return stops.find((z) => z > zoom * MIN_STEP);
  for (let i = stops.length - 1; i >= 0; i--) if (stops[i]! < zoom / MIN_STEP) return stops[i];
  return undefined;
}

/** The zoom at which `bounds` (plus 10% padding) fits a pane. */
export function fitZoom(bounds: { width: number; height: number }, pane: { width: number; height: number }): number {
  if (bounds.width <= 0 || bounds.height <= 0 || pane.width <= 0 || pane.height <= 0) return 1;
  return Math.min(pane.width / (bounds.width * 1.2), pane.height / (bounds.height * 1.2));
}
