/**
 * A short, readable name for a User-Agent string in the devices list ("Chrome on Linux").
 * Pure. A guess from well-known tokens only; the list shows the full string on hover.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/Firefox\//, "Firefox"],
  [/HeadlessChrome\//, "Headless Chrome"],
  [/Chrom(e|ium)\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
  [/^curl\//, "curl"],
  [/^node|undici/i, "Node.js"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux|X11/, "Linux"],
];

export function describeUserAgent(ua: string): string {
  if (!ua.trim()) return "Unknown browser";
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? (ua.length > 60 ? `${ua.slice(0, 60)}…` : ua);
}
