/**
 * Colours of the HTML export, light and dark (design/ui.md: compaction amber, branch summary
 * violet, accent for the active path). Pure data. Every foreground is meant to keep a 4.5:1
 * contrast against every background of the same theme; `theme.test.ts` checks it, so a colour
 * change that breaks the ratio fails the tests instead of shipping.
 */

export interface Palette {
  /** Page background. */
  bg: string;
  /** Panes, headers and controls. */
  surface: string;
  /** The selected row. */
  selected: string;
  /** Compaction rows and cards. */
  amberBg: string;
  /** Branch summary rows and cards. */
  violetBg: string;
  text: string;
  muted: string;
  accent: string;
  amber: string;
  violet: string;
  border: string;
}

export const LIGHT: Palette = {
  bg: "#ffffff",
  surface: "#f4f5f7",
  selected: "#dde9fb",
  amberBg: "#fdf1dc",
  violetBg: "#f1eafb",
  text: "#1b1d21",
  muted: "#4f5660",
  accent: "#0a58a8",
  amber: "#7f4500",
  violet: "#5f2ea3",
  border: "#c9cdd4",
};

export const DARK: Palette = {
  bg: "#15171b",
  surface: "#1d2026",
  selected: "#1e3250",
  amberBg: "#2d2313",
  violetBg: "#261c35",
  text: "#e6e8eb",
  muted: "#a9b0ba",
  accent: "#80bbff",
  amber: "#f0b456",
  violet: "#cdb0f8",
  border: "#3b4049",
};

/** The keys of a palette that are text colours, and those that are backgrounds. */
export const FOREGROUNDS = ["text", "muted", "accent", "amber", "violet"] as const;
export const BACKGROUNDS = ["bg", "surface", "selected", "amberBg", "violetBg"] as const;

/** CSS custom properties (`--bg: #fff; …`) for one palette. */
export function paletteVars(p: Palette): string {
  return Object.entries(p)
    .map(([name, value]) => `--${name}:${value};`)
    .join("");
}
