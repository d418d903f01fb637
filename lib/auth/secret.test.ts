import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileSecret } from "./secret";

const dir = mkdtempSync(path.join(tmpdir(), "arbor-secret-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the session secret file", () => {
  it("is created once with mode 0600 and read back the same after a restart", () => {
    const file = path.join(dir, "data", "session-secret");
    const first = fileSecret(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(fileSecret(file)).toBe(first);
    expect(readFileSync(file, "utf8").trim()).toBe(first);
  });
});
