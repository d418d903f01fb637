import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { fakeLlm } from "./fake-llm";

/**
 * The session workspace through the browser: upload into the Files panel (picker and
 * drag-and-drop), a scripted edit tool call shown with its diff in the chat, the panel refreshing
 * by itself after the turn, the changed file downloaded; and the per-session Tools switch.
 */
const NOTES = "# Notes\nstatus: draft\nowner: ana\n";

test.beforeEach(async () => {
  await fakeLlm.reset();
});

async function newSession(page: Page) {
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
}

async function openFiles(page: Page) {
  await page.getByRole("region", { name: "Context inspector" }).getByRole("tab", { name: "Files" }).click();
  const files = page.getByRole("region", { name: "Files" });
  await expect(files).toBeVisible();
  return files;
}

async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

test("upload a file, let the agent edit it, see the diff and download the new content", async ({ page }) => {
  await newSession(page);
  const files = await openFiles(page);
  await expect(files).toContainText("The workspace is empty");

  const chooser = page.waitForEvent("filechooser");
  await files.getByRole("button", { name: "Upload files" }).click();
  await (await chooser).setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from(NOTES) });
  await expect(files.getByRole("status", { name: "Uploads" })).toContainText("Uploaded notes.txt (33 B)");
  const notesRow = files.getByRole("listitem").filter({ has: page.getByRole("link", { name: "notes.txt" }) });
  await expect(notesRow).toContainText("33 B");

  // A second file by drag-and-drop onto the panel.
  const dropped = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["a,b\n1,2\n"], "data.csv", { type: "text/csv" }));
    return dt;
  });
  for (const type of ["dragenter", "dragover", "drop"]) await files.dispatchEvent(type, { dataTransfer: dropped });
  await expect(files.getByRole("link", { name: "data.csv" })).toBeVisible();

  await fakeLlm.script(
    { toolCalls: [{ name: "edit", arguments: { path: "notes.txt", oldText: "status: draft", newText: "status: published" } }] },
    { text: "The notes are marked published." },
  );
  await send(page, "Mark the notes as published");
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByRole("article", { name: "assistant message", exact: true }).last()).toContainText("The notes are marked published.");

  // The tool call, collapsed, then expanded with its diff.
  const call = log.getByRole("group").filter({ hasText: "edit(notes.txt)" });
  const diff = call.getByRole("figure", { name: "Diff" });
  await expect(diff).toBeHidden();
  await call.getByText("edit(notes.txt)").click();
  await expect(diff).toBeVisible();
  await expect(diff).toContainText("removed: -status: draft");
  await expect(diff).toContainText("added: +status: published");
  await expect(call).toContainText("Edited notes.txt: replaced 1 line with 1 line at line 2");

  // The Files panel refreshed after the turn on its own: the file grew by four bytes.
  await expect(notesRow).toContainText("37 B");
  const href = await files.getByRole("link", { name: "notes.txt" }).getAttribute("href");
  const res = await page.request.get(href ?? "");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-disposition"]).toContain('attachment; filename="notes.txt"');
  expect(await res.text()).toBe("# Notes\nstatus: published\nowner: ana\n");

  // A path escaping the workspace is refused with a clear message.
  const refused = await page.request.get(href?.replace("notes.txt", "..%2F..%2Fetc%2Fpasswd") ?? "");
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ error: 'Path "../../etc/passwd" is outside the workspace' });

  const sent = (await fakeLlm.requests()) as { tools?: { function: { name: string } }[] }[];
  expect((sent[0]?.tools ?? []).map((t) => t.function.name)).toContain("edit");
});

test("the session's Tools switch: a disabled tool is not offered to the model", async ({ page }) => {
  await newSession(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Session settings" });
  for (const tool of ["write", "edit"]) await dialog.getByRole("checkbox", { name: tool, exact: true }).uncheck();
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toBeHidden();

  await fakeLlm.script({ text: "Only reading today." });
  await send(page, "What can you do?");
  await expect(page.getByRole("log", { name: "Messages" }).getByRole("article", { name: "assistant message", exact: true })).toContainText("Only reading today.");
  const sent = (await fakeLlm.requests()) as { tools?: { function: { name: string } }[] }[];
  expect((sent.at(-1)?.tools ?? []).map((t) => t.function.name)).toEqual(["read", "ls", "find", "grep"]);
});
