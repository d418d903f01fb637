/**
 * Programs the server's account cannot run are refused before anything is spawned, with one
 * sentence that names them and the fix (never an unhandled 'error' event of a spawn).
 */
import { mkdtempSync } from "node:fs";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serverAccount } from "./embedded-account";
import { placeServer } from "./embedded-place";

const root = mkdtempSync(path.join(tmpdir(), "arbor-place-"));
afterAll(() => rm(root, { recursive: true, force: true }));

async function fakePrograms(mode: number) {
  const dir = path.join(root, `native-${mode.toString(8)}`);
  await mkdir(path.join(dir, "bin"), { recursive: true });
  for (const name of ["initdb", "postgres"]) await writeFile(path.join(dir, "bin", name), "#!/bin/sh\n", { mode });
  return { root: dir, initdb: path.join(dir, "bin", "initdb"), postgres: path.join(dir, "bin", "postgres") };
}

describe("placing the embedded server", () => {
  it("refuses programs that are not executable, saying which and what to do", async () => {
    await chmod(root, 0o755);
    const programs = await fakePrograms(0o644);
    const account = serverAccount();
    const stage = path.join(root, "stage");
    process.env.ARBOR_POSTGRES_STAGE = stage;
    try {
      const attempt = placeServer(path.join(root, "data", "postgres"), account, programs);
      await expect(attempt).rejects.toThrow(account ? /cannot run .*bin\/postgres.*DATABASE_URL/ : /not executable by this user.*npm install/);
    } finally {
      delete process.env.ARBOR_POSTGRES_STAGE;
    }
  });

  it("leaves a reachable checkout as it is: programs and cluster where they were asked for", async () => {
    await chmod(root, 0o755);
    const programs = await fakePrograms(0o755);
    const requested = path.join(root, "reachable", ".data", "postgres");
    const place = await placeServer(requested, serverAccount(), programs);
    expect(place.cluster).toBe(requested);
    expect(place.programs.root).toBe(programs.root);
    expect(place.note).toBeUndefined();
  });
});
