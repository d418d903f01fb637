import { expect, test } from "./test";

test("create a session, reload, it is still listed, open it", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { name: "Untitled session" })).toBeVisible();
  await expect(page.getByText("This session is empty")).toBeVisible();

  await page.goto("/");
  await page.reload();
  const link = page.getByRole("list", { name: "Sessions" }).locator(`a[href="/sessions/${id}"]`);
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await expect(page.getByRole("heading", { name: "Untitled session" })).toBeVisible();
});

test("an unknown session shows the not-found page", async ({ page, consoleGuard }) => {
  // The 404 of the page itself is what this test asks for; the browser logs it.
  consoleGuard.allow(/status of 404 .*\/sessions\/does-not-exist/);
  const res = await page.goto("/sessions/does-not-exist");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});
