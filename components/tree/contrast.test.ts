/**
 * The text colour pairs the tree canvas uses keep 4.5:1 (ui.md, WCAG AA) in both themes.
 * Reads the theme variables from app/globals.css, so a palette change that breaks the
 * canvas fails here. Translucent band fills are composited over the page background.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const css = readFileSync(path.resolve(import.meta.dirname, "../../app/globals.css"), "utf8");
const darkStart = css.indexOf("@media (prefers-color-scheme: dark)");

function vars(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{6})/g)) out[m[1]!] = m[2]!;
  return out;
}
const light = vars(css.slice(0, darkStart));
const dark = { ...light, ...vars(css.slice(darkStart)) };

type Rgb = [number, number, number];
const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const mix = (a: Rgb, b: Rgb, t: number): Rgb => a.map((v, i) => v * t + b[i]! * (1 - t)) as Rgb;
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
function ratio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** [text, background] pairs of tree.css / the node components; "band" = 14% amber over --bg. */
const PAIRS: [string, string][] = [
  ["--fg", "--bg"],
  ["--fg", "--panel"],
  ["--muted", "--bg"],
  ["--color-error", "--bg"],
  ["--color-edit", "--bg"],
  ["--muted", "--panel"],
  ["--color-compaction", "--bg"],
  ["--color-branch", "--bg"],
  ["--color-accent", "--bg"],
  ["--color-accent", "--panel"],
  ["--fg", "band"],
];

describe("tree colours keep 4.5:1", () => {
  it("reads both themes", () => {
    expect(light["--bg"]).toMatch(/^#/);
    expect(dark["--bg"]).not.toBe(light["--bg"]);
    expect(dark["--color-compaction"]).not.toBe(light["--color-compaction"]);
  });

  for (const [name, theme] of [
    ["light", light],
    ["dark", dark],
  ] as const) {
    it(`in the ${name} theme`, () => {
      const color = (v: string): Rgb => {
        if (v === "band") return mix(rgb(theme["--color-compaction"]!), rgb(theme["--bg"]!), 0.14);
        const hex = theme[v];
        if (!hex) throw new Error(`${v} missing from globals.css`);
        return rgb(hex);
      };
      for (const [fg, bg] of PAIRS) {
        expect({ pair: `${fg} on ${bg}`, ok: ratio(color(fg), color(bg)) >= 4.5 }).toEqual({
          pair: `${fg} on ${bg}`,
          ok: true,
        });
      }
    });
  }
});
