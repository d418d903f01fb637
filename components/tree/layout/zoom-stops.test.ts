/** "+" and "−" step between useful zoom levels (ui.md), not 1.2× a click. */
import { describe, expect, it } from "vitest";
import { fitZoom, nextZoomStop, zoomStops } from "@/components/tree/layout/zoom-stops";

describe("zoom stops", () => {
  it("from Fit view of a long session, three clicks reach readable cards and the entries", () => {
    const stops = zoomStops(0.08, 0.05, 2);
    expect(stops).toEqual([0.08, 0.3, 0.6, 0.85, 1, 1.5, 2]);
    let z = 0.08;
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      z = nextZoomStop(stops, z, 1)!;
      seen.push(z);
    }
    expect(seen).toEqual([0.3, 0.6, 0.85, 1]);
  });

  it("zooming out ends at Fit view; a stop is never the zoom it is already at", () => {
    const stops = zoomStops(0.2, 0.05, 2);
    expect(nextZoomStop(stops, 0.6, -1)).toBe(0.3);
    expect(nextZoomStop(stops, 0.3, -1)).toBe(0.2);
    expect(nextZoomStop(stops, 0.2, -1)).toBeUndefined();
    expect(nextZoomStop(stops, 2, 1)).toBeUndefined();
    expect(nextZoomStop(stops, 0.59, 1)).toBe(0.85);
  });

  it("a small tree whose Fit view is already close skips the stops below it", () => {
    expect(zoomStops(0.9, 0.05, 2)).toEqual([0.9, 1, 1.5, 2]);
    expect(fitZoom({ width: 1000, height: 500 }, { width: 600, height: 600 })).toBeCloseTo(0.5);
  });
});
