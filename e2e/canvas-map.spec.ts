import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { generateSession, generateSessionJsonl } from "@/test/generators/session";
import { importJsonl, readTree } from "./session-helpers";

/**
 * The tree as a map (issue 13; ui.md "visual language"): a generated 1,000-entry session with
 * compactions and a side branch opens as turns; at Fit view the landmarks — the latest
 * compaction's "[compaction: …k tokens]", "first kept", the branch point and the current leaf —
 * are visible text, and a screenshot of each shows glyphs at least 11 px tall. Zooming in with
 * the wheel shows the entries of the turns in view.
 */

const SESSION = { seed: 1313, entries: 1000, branches: 1, compactions: true } as const;
const treeRegion = (page: Page) => page.getByRole("region", { name: "Session tree" });
const landmarks = (page: Page) => treeRegion(page).getByRole("navigation", { name: "Landmarks" });

/**
 * Height in screen pixels of the ink (non-background pixels) of a caption's text, measured on
 * a screenshot of the text's own box (inside the pill's border): decoded in the page, since the
 * browser already has a PNG decoder.
 */
async function inkHeight(page: Page, caption: Locator): Promise<number> {
  const box = await caption.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  const png = await page.screenshot({ clip: box, scale: "css" });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
    const lum = (i: number) => 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    // The background: the most common luminance of the box.
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4) counts.set(Math.round(lum(i)), (counts.get(Math.round(lum(i))) ?? 0) + 1);
    const bg = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    let top = -1;
    let bottom = -1;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (Math.abs(lum((y * width + x) * 4) - bg) > 80) {
          if (top < 0) top = y;
          bottom = y;
          break;
        }
      }
    }
    return top < 0 ? 0 : bottom - top + 1;
  }, png.toString("base64"));
}

test("a 1,000-entry session with compactions and a branch: at Fit view its landmarks are readable text, 11 px or taller", async ({ page, request }) => {
  test.setTimeout(180_000);
  const { entries } = generateSession(SESSION);
  const id = await importJsonl(request, "generated-map-1k.jsonl", generateSessionJsonl(SESSION), { asCopy: true });
  const tree = await readTree(request, id);
  const latest = tree.entries.filter((e) => e.type === "compaction").at(-1)!;
  expect(latest, "the generated session has a compaction").toBeTruthy();
  expect(entries.length).toBe(1000);

  await page.goto(`/sessions/${id}`);
  const region = treeRegion(page);
  // The overview: one node per turn, far fewer nodes than entries; the leaf's turn in view.
  await expect(region.getByRole("button", { name: "Turns" })).toHaveAttribute("aria-pressed", "true");
  await expect(region.locator('[aria-roledescription="node"]').first()).toBeVisible();
  await expect(landmarks(page).getByText("you are here")).toBeVisible();

  await region.getByRole("button", { name: "Fit view" }).click();
  await page.waitForTimeout(600); // the fit animation
  const compactionText = `[compaction: ${Math.round(latest.tokensBefore! / 1000)}k tokens]`;
  const captions = {
    compaction: landmarks(page).getByText(compactionText, { exact: true }).first(),
    firstKept: landmarks(page).getByText("first kept", { exact: true }).first(),
    branchPoint: landmarks(page).getByText(/^branch point: \d+ branches$/).first(),
    leaf: landmarks(page).getByText("you are here", { exact: true }),
  };
  for (const [name, caption] of Object.entries(captions)) {
    await expect(caption, name).toBeVisible();
    await expect(caption, name).toBeInViewport();
    expect(await inkHeight(page, caption), `${name}: ink height on screen`).toBeGreaterThanOrEqual(11);
  }

  // "Jump to" lists the compactions (latest first, with when each was made); choosing one brings it
  // into view, readable.
  const jump = region.getByRole("combobox", { name: "Jump to" });
  const latestOption = jump.locator('optgroup[label="Compactions"] option').first();
  await expect(latestOption).toHaveText(new RegExp(`^${compactionText.replace(/[[\]]/g, "\\$&")} · `));
  await jump.selectOption({ label: (await latestOption.textContent())! });
  const node = region.locator(`[aria-roledescription="node"][data-id="${latest.id}"]`);
  await expect(node).toBeInViewport();

  // Zooming in with the wheel shows the entries of the turns in view.
  const pane = region.locator(".react-flow__pane");
  const box = (await pane.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -500);
  await expect(region.locator('.react-flow__node-entry[aria-roledescription="node"]').first()).toBeVisible({ timeout: 10_000 });
});
