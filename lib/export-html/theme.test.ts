/** The export's colours keep a 4.5:1 contrast in both themes (design/ui.md "Colours"). */
import { describe, expect, it } from "vitest";
import { BACKGROUNDS, DARK, FOREGROUNDS, LIGHT, type Palette } from "@/lib/export-html/theme";

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG 2 contrast ratio. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe.each([
  ["light", LIGHT],
  ["dark", DARK],
] as [string, Palette][])("%s theme", (_name, palette) => {
  for (const fg of FOREGROUNDS) {
    for (const bg of BACKGROUNDS) {
      it(`${fg} on ${bg} is at least 4.5:1`, () => {
        expect(contrast(palette[fg], palette[bg])).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
