import { expect, test } from "./test";
import { generateSessionJsonl } from "@/test/generators/session";
import { deleteFromList, importJsonl } from "./session-helpers";

/**
 * The home page's filters and groups (docs/ui.md "Pages", `/`): a project picked from the list
 * of projects with their counts narrows the list, survives a reload (it is in the address), and
 * the list grouped by project shows each session under its folder's name, with "Only these".
 */
test("the session list filters by project, groups by project, and keeps the view in the address", async ({ page, request }) => {
  const tag = `filters${test.info().project.name}${Date.now() % 1_000_000}`;
  const one = `/e2e/${tag}-one`;
  const two = `/e2e/${tag}-two`;
  const a = await importJsonl(request, "filters-a.jsonl", generateSessionJsonl({ seed: 901, entries: 8, cwd: one }), { asCopy: true, title: `${tag} first` });
  const b = await importJsonl(request, "filters-b.jsonl", generateSessionJsonl({ seed: 902, entries: 8, cwd: two }), { asCopy: true, title: `${tag} second` });

  await page.goto("/");
  const filters = page.getByRole("group", { name: "Filter and group sessions" });
  const project = filters.getByRole("combobox", { name: "Project" });
  await expect(project.locator("option", { hasText: `${tag}-one (1)` })).toHaveCount(1);
  await project.selectOption(one);
  const list = page.getByRole("list", { name: "Sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("link", { name: `${tag} first` })).toBeVisible();
  // The row names its agent (an icon with a name) and its project.
  await expect(list.getByRole("img", { name: "pi / oh-my-pi" })).toBeVisible();
  await expect(list.getByText(`${tag}-one`, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`project=${encodeURIComponent(one)}`));

  await page.reload();
  await expect(page.getByRole("list", { name: "Sessions" }).getByRole("listitem")).toHaveCount(1);
  await expect(project).toHaveValue(one);

  await filters.getByRole("button", { name: "Clear filters" }).click();
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(tag);
  await filters.getByRole("combobox", { name: "Group by" }).selectOption("project");
  await expect(page.getByRole("region", { name: `${tag}-one` }).getByRole("link", { name: `${tag} first` })).toBeVisible();
  const second = page.getByRole("region", { name: `${tag}-two` });
  await expect(second.getByRole("link", { name: `${tag} second` })).toBeVisible();
  await second.getByRole("button", { name: "Only these" }).click();
  await expect(page.getByRole("list", { name: "Sessions" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Sessions" }).getByRole("link", { name: `${tag} second` })).toBeVisible();
  await expect(project).toHaveValue(two);

  await deleteFromList(page, request, a, `${tag} first`);
  await deleteFromList(page, request, b, `${tag} second`);
});
