/** The sync_files rows a synced folder keeps: saved and read back as they were, and listed by folder. */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { createSession } from "..";
import { findTrackedFile, listTrackedFiles, saveTrackedFile, type TrackedFile } from "./tracked-files";

useTestDatabase();

const row = (path: string, sessionId: string, over: Partial<TrackedFile> = {}): TrackedFile => ({
  path,
  sessionId,
  format: "claude-code",
  size: 10,
  mtimeMs: 1_700_000_000_123.5,
  statDigest: null,
  importedBytes: 10,
  prefixSha256: "ab".repeat(32),
  settledEntries: 2,
  syncedLeafId: null,
  version: 1,
  ...over,
});

describe("tracked files", () => {
  it("reads back what was saved, sizes past 4 GiB included, and replaces the row of a path", async () => {
    const { id } = await createSession();
    const big = row("/data/big.jsonl", id, { size: 5 * 2 ** 30 + 7, importedBytes: 5 * 2 ** 30, syncedLeafId: "leaf0001" });
    await saveTrackedFile(big);
    expect(await findTrackedFile(big.path)).toEqual(big);
    const next = { ...big, size: big.size + 100, statDigest: "cd".repeat(20), settledEntries: 9, version: 2 };
    await saveTrackedFile(next);
    expect(await findTrackedFile(big.path)).toEqual(next);
    expect(await findTrackedFile("/data/other.jsonl")).toBeNull();
  });

  it("lists the files below a folder by path, and `_`, `%` and `\\` in its name match only themselves", async () => {
    const { id } = await createSession();
    const paths = ["/s/a_b/2.jsonl", "/s/a_b/1.jsonl", "/s/aXb/3.jsonl", "/s/a%/4.jsonl", "/s/a%z/5.jsonl", "/s/a\\b/6.jsonl", "/s/a_b.jsonl"];
    for (const path of paths) await saveTrackedFile(row(path, id));
    const listed = async (folder: string) => (await listTrackedFiles(folder)).map((t) => t.path);
    expect(await listed("/s/a_b")).toEqual(["/s/a_b/1.jsonl", "/s/a_b/2.jsonl"]);
    expect(await listed("/s/a_b/")).toEqual(["/s/a_b/1.jsonl", "/s/a_b/2.jsonl"]);
    expect(await listed("/s/a%")).toEqual(["/s/a%/4.jsonl"]);
    expect(await listed("/s/a\\b")).toEqual(["/s/a\\b/6.jsonl"]);
    expect(await listed("/s/aXb")).toEqual(["/s/aXb/3.jsonl"]);
  });
});
