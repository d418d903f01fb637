import { expect, test } from "./test";
import { importJsonl } from "./session-helpers";

/**
 * "Continue in…" (docs/formats.md "Hand-off"): from an entry's menu on the canvas, the dialog
 * says what Claude Code will not get and where the file would go, and "Download" gives a Claude
 * Code file of the path to that entry: its first prompt is the branch's first, the branch's
 * later prompt is in it and the other branch's is not.
 */

const treeRegion = (page: import("@playwright/test").Page) => page.getByRole("region", { name: "Session tree" });
const nodeNamed = (page: import("@playwright/test").Page, name: string | RegExp) =>
  treeRegion(page).locator('[aria-roledescription="node"]').and(page.getByRole("group", { name }));

/** A pi session with two branches after the second reply; the leaf ends branch B. */
function sessionText(tag: string) {
  const t = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 };
  const assistant = (text: string, extra: object[] = []) => ({ role: "assistant", content: [{ type: "text", text }, ...extra], provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages", usage, stopReason: extra.length ? "toolUse" : "stop", timestamp: 0 });
  const prompts = { first: `Plan the move to PostgreSQL (${tag})`, a: `Branch A: add the indexes (${tag})`, b: `Branch B: keep flat files (${tag})` };
  const entries = [
    { type: "message", id: "u1", parentId: null, timestamp: t(1), message: { role: "user", content: prompts.first, timestamp: 0 } },
    { type: "message", id: "a1", parentId: "u1", timestamp: t(2), message: assistant("Reading the schema first.", [{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "schema.sql" } }]) },
    { type: "message", id: "r1", parentId: "a1", timestamp: t(3), message: { role: "toolResult", toolCallId: "call-1", toolName: "read", content: [{ type: "text", text: "CREATE TABLE t (id int);" }], isError: false, timestamp: 0 } },
    { type: "message", id: "a2", parentId: "r1", timestamp: t(4), message: assistant(`The schema has one table (${tag}).`) },
    { type: "message", id: "u2", parentId: "a2", timestamp: t(5), message: { role: "user", content: prompts.a, timestamp: 0 } },
    { type: "message", id: "a3", parentId: "u2", timestamp: t(6), message: assistant(`Indexes planned for branch A (${tag}).`) },
    { type: "message", id: "u3", parentId: "a2", timestamp: t(7), message: { role: "user", content: prompts.b, timestamp: 0 } },
    { type: "message", id: "a4", parentId: "u3", timestamp: t(8), message: assistant(`Flat files kept for branch B (${tag}).`) },
  ];
  const header = { type: "session", version: 3, id: `handoff-e2e-${tag}`, timestamp: t(0), cwd: "/home/dev/handoff-e2e" };
  return { prompts, text: `${[header, ...entries].map((l) => JSON.stringify(l)).join("\n")}\n` };
}

test("Continue in… Claude Code downloads a file whose first user prompt is the branch's first", async ({ page, request }, info) => {
  const tag = `${info.project.name}-${Date.now()}`;
  const { prompts, text } = sessionText(tag);
  const id = await importJsonl(request, `handoff-${tag}.jsonl`, text, { asCopy: true });
  await page.goto(`/sessions/${id}`);
  await treeRegion(page).getByRole("button", { name: "Fit view" }).click();

  const node = nodeNamed(page, new RegExp(`assistant: Indexes planned for branch A \\(${tag}\\)`));
  await node.getByRole("button", { name: "Entry actions" }).click();
  await page.getByRole("menu", { name: "Entry actions" }).getByRole("menuitem", { name: "Continue in…" }).click();

  const dialog = page.getByRole("dialog", { name: "Continue in…" });
  await expect(dialog.getByRole("radio", { name: "Claude Code" })).toBeChecked();
  await expect(dialog.getByRole("region", { name: "Not carried" })).toContainText("2 entries on other branches of the session are not written");
  await expect(dialog.getByTestId("handoff-path")).toContainText(/\.claude\/projects\/-home-dev-handoff-e2e\/[0-9a-f-]{36}\.jsonl$/);

  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^[0-9a-f-]{36}\.jsonl$/);
  const stream = await download.createReadStream();
  let body = "";
  for await (const chunk of stream) body += chunk.toString();
  const records = body.trim().split("\n").map((l) => JSON.parse(l) as { type: string; parentUuid: string | null; uuid: string; message?: { content: unknown } });
  const prompt = (r: (typeof records)[number]) => (typeof r.message?.content === "string" ? r.message.content : Array.isArray(r.message?.content) ? (r.message.content as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text).join("") : "");
  const userPrompts = records.filter((r) => r.type === "user").map(prompt).filter((p) => p !== "");
  expect(userPrompts[0]).toBe(prompts.first);
  expect(userPrompts).toContain(prompts.a);
  expect(body).not.toContain(prompts.b);
  // One chain from the first record to the last.
  expect(records.map((r) => r.parentUuid)).toEqual([null, ...records.slice(0, -1).map((r) => r.uuid)]);
});
