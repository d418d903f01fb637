/**
 * A session pointed at an existing project folder (issue 8): only inside an allowed root, checked
 * when the setting is saved; the tools and the Files panel then work in that folder.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { updateSessionSettings } from "@/app/sessions/[id]/actions";
import { GET as listFiles } from "@/app/api/sessions/[id]/files/route";
import type { ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { configureChatRuntime } from "./runtime-config";
import { newSession, postChat, readAll, storedPath, useHarness } from "@/test/chat-harness";

useTestDatabase();
const h = useHarness();

async function folders() {
  const base = await mkdtemp(path.join(tmpdir(), "arbor-projects-"));
  const allowed = path.join(base, "allowed");
  const project = path.join(allowed, "demo");
  const outside = path.join(base, "outside");
  await mkdir(project, { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(project, "README.md"), "# Demo project\n");
  configureChatRuntime({ allowedRoots: [allowed] });
  return { project, outside };
}

describe("project folder of a session", () => {
  it("is refused outside an allowed root, with the reason, and nothing is saved", async () => {
    const { outside } = await folders();
    const s = await newSession();
    const r = await updateSessionSettings({ sessionId: s.id, projectDir: outside });
    expect(r).toMatchObject({ ok: false, error: "invalid_input" });
    expect(!r.ok && r.message).toMatch(/projectDir: .*is not inside an allowed root/);
    const again = await updateSessionSettings({ sessionId: s.id, projectDir: "relative/path" });
    expect(!again.ok && again.message).toMatch(/absolute folder path/);
  });

  it("is used by the tools and the Files panel once accepted", async () => {
    const { project } = await folders();
    const s = await newSession();
    const r = await updateSessionSettings({ sessionId: s.id, projectDir: project });
    expect(r.ok).toBe(true);

    const files = await listFiles(new Request(`http://127.0.0.1/api/sessions/${s.id}/files`), { params: Promise.resolve({ id: s.id }) });
    expect(JSON.stringify(await files.json())).toContain("README.md");

    h.fake.script(
      { toolCalls: [{ name: "read", arguments: { path: "README.md" } }] },
      { text: "It is the demo project." },
    );
    await readAll(await postChat(s.id, "What is in the README?"));
    const path_ = await storedPath(s.id);
    const result = path_.find((e) => e.type === "message" && e.message.role === "toolResult");
    const text = ((result as { message: ToolResultMessage } | undefined)?.message.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text).toContain("# Demo project");
  });
});
