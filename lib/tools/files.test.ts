import { readdir, readFile, readlink, realpath, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "./errors";
import { listWorkspace, readForDownload, writeUpload } from "./files";
import { makeSandbox, put, SECRET, type Sandbox } from "@/test/tools-sandbox";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

async function drain(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

/** How many of this process's file descriptors are open on `file` (Linux: /proc/self/fd). */
async function openDescriptorsOf(file: string): Promise<number> {
  let n = 0;
  for (const fd of await readdir("/proc/self/fd")) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
    if (target === file) n++;
  }
  return n;
}

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
      c.close();
    },
  });
}

describe("listWorkspace", () => {
  it("returns a sorted tree with sizes; symlinks flagged, node_modules listed but not entered", async () => {
    await put(sb.root, { "b.txt": "hey", "src/a.ts": "1", "src/lib/c.ts": "22", "node_modules/x/y.js": "" });
    await symlink(sb.outside, path.join(sb.root, "out"));
    const { nodes, count, truncated } = await listWorkspace(sb.root, { maxEntries: 100 });
    expect(truncated).toBe(false);
    expect(count).toBe(7);
    expect(nodes.map((n) => [n.name, n.kind])).toEqual([
      ["b.txt", "file"],
      ["node_modules", "directory"],
      ["out", "symlink"],
      ["src", "directory"],
    ]);
    expect(nodes[0]).toMatchObject({ path: "b.txt", size: 3 });
    expect(nodes[1]).toMatchObject({ skipped: true });
    expect(nodes[1]!.children).toBeUndefined();
    expect(nodes[2]!.children).toBeUndefined();
    const src = nodes[3]!;
    expect(src.children!.map((n) => n.path)).toEqual(["src/a.ts", "src/lib"]);
    expect(src.children![1]!.children).toEqual([expect.objectContaining({ path: "src/lib/c.ts", size: 2 })]);
  });

  it("caps breadth-first, so the top levels survive", async () => {
    await put(sb.root, { "a/deep/1": "", "a/deep/2": "", "b": "", "c": "" });
    const { nodes, count, truncated } = await listWorkspace(sb.root, { maxEntries: 4 });
    expect(truncated).toBe(true);
    expect(count).toBe(4);
    expect(nodes.map((n) => n.name)).toEqual(["a", "b", "c"]);
    expect(nodes[0]!.children!.map((n) => n.name)).toEqual(["deep"]);
  });
});

describe("writeUpload", () => {
  it("stores bytes and streams, creating folders and replacing files", async () => {
    expect(await writeUpload(sb.root, "up/a.bin", new Uint8Array([1, 2, 3]), { maxBytes: 10 })).toEqual({ path: "up/a.bin", size: 3 });
    expect(await readFile(path.join(sb.root, "up/a.bin"))).toEqual(Buffer.from([1, 2, 3]));
    expect(await writeUpload(sb.root, "up/a.bin", streamOf("he", "llo"), { maxBytes: 10 })).toEqual({ path: "up/a.bin", size: 5 });
    expect(await readFile(path.join(sb.root, "up/a.bin"), "utf8")).toBe("hello");
    expect(await readdir(path.join(sb.root, "up"))).toEqual(["a.bin"]);
  });

  it("refuses an upload over maxBytes and leaves nothing behind (not even a temp file)", async () => {
    await put(sb.root, { "keep.txt": "original" });
    await expect(writeUpload(sb.root, "keep.txt", streamOf("12345", "67890", "x"), { maxBytes: 10 })).rejects.toThrow(
      'Upload "keep.txt" is over the 10 B limit',
    );
    expect(await readFile(path.join(sb.root, "keep.txt"), "utf8")).toBe("original");
    expect(await readdir(sb.root)).toEqual(["keep.txt"]);
  });

  it("refuses escapes, symlinks out, the root and folders", async () => {
    await symlink(sb.outside, path.join(sb.root, "out"));
    await put(sb.root, { "dir/x": "" });
    for (const p of ["../outside/x", "/tmp/x", "out/x", "out/secret.txt", ".", "dir"]) {
      await expect(writeUpload(sb.root, p, new Uint8Array([1]), { maxBytes: 10 })).rejects.toBeInstanceOf(ToolError);
    }
    expect(await readdir(sb.outside)).toEqual(["secret.txt"]);
    expect(await readFile(path.join(sb.outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`);
  });
});

describe("readForDownload", () => {
  it("streams a file with its size, name and MIME type", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200_000, 7)]);
    await put(sb.root, { "img/pic.dat": png, "notes.md": "# hi\n" });
    const dl = await readForDownload(sb.root, "img/pic.dat");
    expect(dl).toMatchObject({ size: png.length, mimeType: "image/png", name: "pic.dat" });
    expect((await drain(dl.stream)).equals(png)).toBe(true);
    const md = await readForDownload(sb.root, "notes.md");
    expect(md.mimeType).toBe("text/markdown");
    expect((await drain(md.stream)).toString()).toBe("# hi\n");
  });

  it("can be cancelled part-way, which closes the file", async () => {
    await put(sb.root, { "big.txt": "z".repeat(3_000_000) });
    const file = await realpath(path.join(sb.root, "big.txt"));
    const dl = await readForDownload(sb.root, "big.txt");
    const reader = dl.stream.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(first.value!.byteLength).toBeLessThan(3_000_000);
    expect(await openDescriptorsOf(file)).toBe(1);
    await reader.cancel();
    expect((await reader.read()).done).toBe(true);
    // The handle is closed by the cancel, not left to the garbage collector.
    await expect.poll(() => openDescriptorsOf(file)).toBe(0);
  });

  it("refuses escapes, outside symlinks, folders and missing files", async () => {
    await symlink(path.join(sb.outside, "secret.txt"), path.join(sb.root, "s"));
    await put(sb.root, { "dir/x": "" });
    for (const [p, msg] of [
      ["../outside/secret.txt", /outside the workspace/],
      ["s", /through a symbolic link/],
      ["dir", /not a regular file/],
      ["missing.txt", /does not exist/],
    ] as const) {
      await expect(readForDownload(sb.root, p)).rejects.toThrow(msg);
    }
  });
});
