/** The inline script and stylesheet: valid, current, and unable to break out of their elements. */
import { describe, expect, it } from "vitest";
import { PAGE_SCRIPT } from "@/lib/export-html/page-script";
import { PAGE_STYLE } from "@/lib/export-html/page-style";
import { bundlePageScript } from "@/scripts/build-page-script";

describe("inline page script and style", () => {
  it("the script is valid JavaScript, bundled from the current TypeScript source", () => {
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
    expect(PAGE_SCRIPT).toBe(bundlePageScript());
  });

  it("neither can close its element or load anything", () => {
    expect(PAGE_SCRIPT).not.toContain("</");
    expect(PAGE_SCRIPT).not.toContain("<!--");
    expect(PAGE_STYLE).not.toContain("</");
    expect(PAGE_STYLE).not.toMatch(/url\(|@import/);
  });

  it("the script builds nodes with textContent, never from HTML strings, and makes no request", () => {
    expect(PAGE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|fetch\(|XMLHttpRequest|import\(/);
    expect(PAGE_SCRIPT).toMatch(/JSON\.parse\(element\("session-data"\)\.textContent/);
    // The only URL it ever sets is a validated data: image.
    expect(PAGE_SCRIPT.match(/\.src\s*=/g)).toHaveLength(1);
    expect(PAGE_SCRIPT).toMatch(/img\.src = `data:\$\{mime\};base64,\$\{payload\.replace\(/);
  });
});
