import { mkdir, realpath, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "./errors";
import { makeSandbox, type Sandbox } from "@/test/tools-sandbox";
import { isInside, resolveWorkspace, safePath, toRelative } from "./workspace";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

async function refusal(p: Promise<unknown>): Promise<string> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as ToolError).message;
}

describe("resolveWorkspace", () => {
  it("creates <workspaces>/<sessionId> on first use and returns its real path", async () => {
    const workspacesDir = path.join(sb.base, "workspaces");
    const dir = await resolveWorkspace({ sessionId: "abc-123_x.y" }, { workspacesDir });
    expect(dir).toBe(path.join(workspacesDir, "abc-123_x.y"));
    expect((await stat(dir)).isDirectory()).toBe(true);
    // Second call: same folder, no error.
    expect(await resolveWorkspace({ sessionId: "abc-123_x.y" }, { workspacesDir })).toBe(dir);
  });

  it.each(["", ".", "..", "../x", "a/b", "a\\b", ".hidden", "x\0y", "a".repeat(129), "é"])(
    "refuses the unsafe session id %j",
    async (sessionId) => {
      const msg = await refusal(resolveWorkspace({ sessionId }, { workspacesDir: path.join(sb.base, "w") }));
      expect(msg).toMatch(/is not a safe folder name/);
    },
  );

  it("refuses a session folder that is a symlink leading elsewhere", async () => {
    const workspacesDir = path.join(sb.base, "workspaces");
    await mkdir(workspacesDir);
    await symlink(sb.outside, path.join(workspacesDir, "evil"));
    expect(await refusal(resolveWorkspace({ sessionId: "evil" }, { workspacesDir }))).toMatch(/resolves outside/);
  });

  it("accepts a projectDir inside an allowed root", async () => {
    const project = path.join(sb.base, "projects", "app");
    await mkdir(project, { recursive: true });
    const dir = await resolveWorkspace(
      { sessionId: "s1", projectDir: project },
      { allowedRoots: [path.join(sb.base, "nope"), path.join(sb.base, "projects")] },
    );
    expect(dir).toBe(project);
  });

  it("refuses a projectDir outside every allowed root, naming it", async () => {
    await mkdir(path.join(sb.base, "projects"));
    const msg = await refusal(
      resolveWorkspace({ sessionId: "s1", projectDir: sb.outside }, { allowedRoots: [path.join(sb.base, "projects")] }),
    );
    expect(msg).toContain(JSON.stringify(sb.outside));
    expect(msg).toMatch(/is not inside an allowed root/);
  });

  it("judges a projectDir by its real path: a symlink inside a root pointing out is refused", async () => {
    const projects = path.join(sb.base, "projects");
    await mkdir(projects);
    await symlink(sb.outside, path.join(projects, "link"));
    const msg = await refusal(
      resolveWorkspace({ sessionId: "s1", projectDir: path.join(projects, "link") }, { allowedRoots: [projects] }),
    );
    expect(msg).toMatch(/not inside an allowed root/);
  });

  it("refuses a sibling folder whose name merely starts like the root", async () => {
    const projects = path.join(sb.base, "projects");
    await mkdir(projects);
    await mkdir(`${projects}-evil`);
    const msg = await refusal(
      resolveWorkspace({ sessionId: "s1", projectDir: `${projects}-evil` }, { allowedRoots: [projects] }),
    );
    expect(msg).toMatch(/not inside an allowed root/);
  });

  it("refuses project folders when no roots are allowed, and relative or missing ones", async () => {
    expect(await refusal(resolveWorkspace({ sessionId: "s", projectDir: sb.root }, { allowedRoots: [] }))).toMatch(
      /ARBOR_ALLOWED_ROOTS is not set/,
    );
    expect(
      await refusal(resolveWorkspace({ sessionId: "s", projectDir: "ws" }, { allowedRoots: [sb.base] })),
    ).toMatch(/must be an absolute path/);
    expect(
      await refusal(resolveWorkspace({ sessionId: "s", projectDir: path.join(sb.base, "missing") }, { allowedRoots: [sb.base] })),
    ).toMatch(/does not exist/);
  });
});

describe("resolveWorkspace: what a refusal tells about paths outside the roots", () => {
  it("answers every path outside the roots alike, whether it exists, is a file or a folder, or is reached by a link", async () => {
    const projects = path.join(sb.base, "projects");
    await mkdir(projects);
    await symlink(path.join(sb.outside, "secret.txt"), path.join(projects, "to-file"));
    await symlink(path.join(sb.outside, "nothing-here"), path.join(projects, "to-nowhere"));
    await symlink(sb.outside, path.join(projects, "to-folder"));
    const candidates = [
      sb.outside,
      path.join(sb.outside, "secret.txt"),
      path.join(sb.outside, "nothing-here"),
      path.join(sb.outside, "nothing", "deeper"),
      path.join(projects, "to-file"),
      path.join(projects, "to-nowhere"),
      path.join(projects, "to-folder", "nothing-here"),
      path.join(projects, "to-folder", "secret.txt"),
    ];
    for (const projectDir of candidates) {
      const msg = await refusal(resolveWorkspace({ sessionId: "s1", projectDir }, { allowedRoots: [projects] }));
      expect(msg).toBe(`Project folder ${JSON.stringify(projectDir)} is not inside an allowed root (${projects})`);
    }
  });

  it("inside a root, still says what is wrong", async () => {
    const projects = path.join(sb.base, "projects");
    await mkdir(projects);
    await writeFile(path.join(projects, "notes.txt"), "x");
    const msg = (projectDir: string) => refusal(resolveWorkspace({ sessionId: "s1", projectDir }, { allowedRoots: [projects] }));
    expect(await msg(path.join(projects, "missing"))).toBe(`Project folder ${JSON.stringify(path.join(projects, "missing"))} does not exist`);
    expect(await msg(path.join(projects, "notes.txt"))).toBe(`Project folder ${JSON.stringify(path.join(projects, "notes.txt"))} is not a folder`);
  });
});

describe("safePath", () => {
  it("resolves plain relative paths, including ones that do not exist yet", async () => {
    await mkdir(path.join(sb.root, "src"));
    expect(await safePath(sb.root, "src")).toBe(path.join(sb.root, "src"));
    expect(await safePath(sb.root, "./src/new/deep.txt")).toBe(path.join(sb.root, "src/new/deep.txt"));
    expect(await safePath(sb.root, "src/../a.txt")).toBe(path.join(sb.root, "a.txt"));
    expect(await safePath(sb.root, ".")).toBe(sb.root);
    expect(await safePath(sb.root, "foo~")).toBe(path.join(sb.root, "foo~"));
  });

  it.each([
    ["../x", /Path "..\/x" is outside the workspace/],
    ["a/../../x", /is outside the workspace/],
    ["..", /is outside the workspace/],
    ["/etc/passwd", /is absolute/],
    [path.join("/", "tmp", "x"), /is absolute/],
    ["~", /"~" paths are not allowed/],
    ["~/.ssh/id_rsa", /"~" paths are not allowed/],
    ["~root/x", /"~" paths are not allowed/],
    ["a\0b", /contains a NUL byte/],
    [`${"a/".repeat(2100)}x`, /is too long/],
    [`${"n".repeat(256)}.txt`, /name longer than 255 bytes/],
  ])("refuses %j", async (userPath, reason) => {
    expect(await refusal(safePath(sb.root, userPath))).toMatch(reason);
  });

  it("refuses a symlink pointing outside, and paths through it", async () => {
    await symlink(sb.outside, path.join(sb.root, "outdir"));
    await symlink(path.join(sb.outside, "secret.txt"), path.join(sb.root, "secret-link"));
    expect(await refusal(safePath(sb.root, "secret-link"))).toMatch(/outside the workspace \(through a symbolic link\)/);
    expect(await refusal(safePath(sb.root, "outdir"))).toMatch(/through a symbolic link/);
    expect(await refusal(safePath(sb.root, "outdir/secret.txt"))).toMatch(/through a symbolic link/);
    // A new file under a symlinked parent folder: the deepest existing ancestor is outside.
    expect(await refusal(safePath(sb.root, "outdir/new/file.txt"))).toMatch(/through a symbolic link/);
  });

  it("refuses a broken symlink (writing through it could land anywhere)", async () => {
    await symlink(path.join(sb.outside, "not-yet"), path.join(sb.root, "dangling"));
    expect(await refusal(safePath(sb.root, "dangling"))).toMatch(/broken symbolic link/);
    expect(await refusal(safePath(sb.root, "dangling/x"))).toMatch(/symbolic link/);
  });

  it("refuses a symlink loop", async () => {
    await symlink("loop-b", path.join(sb.root, "loop-a"));
    await symlink("loop-a", path.join(sb.root, "loop-b"));
    expect(await refusal(safePath(sb.root, "loop-a/x"))).toMatch(/symbolic-link loop|broken symbolic link/);
  });

  it("follows symlinks that stay inside, returning the real target", async () => {
    await writeFile(path.join(sb.root, "real.txt"), "hi");
    await mkdir(path.join(sb.root, "realdir"));
    await symlink("real.txt", path.join(sb.root, "alias.txt"));
    await symlink("realdir", path.join(sb.root, "aliasdir"));
    expect(await safePath(sb.root, "alias.txt")).toBe(path.join(sb.root, "real.txt"));
    expect(await safePath(sb.root, "aliasdir/new.txt")).toBe(path.join(sb.root, "realdir/new.txt"));
  });

  it("works when the root itself is given through a symlink", async () => {
    const alias = path.join(sb.base, "ws-alias");
    await symlink(sb.root, alias);
    expect(await safePath(alias, "a.txt")).toBe(path.join(await realpath(sb.root), "a.txt"));
    expect(await refusal(safePath(alias, "../outside/secret.txt"))).toMatch(/outside the workspace/);
  });
});

describe("helpers", () => {
  it("isInside compares whole components", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    expect(isInside("/a/b", "/a/b/..foo")).toBe(true);
  });
  it("toRelative gives POSIX paths and '.' for the root", () => {
    expect(toRelative("/r", "/r")).toBe(".");
    expect(toRelative("/r", "/r/a/b.txt")).toBe("a/b.txt");
  });
});
