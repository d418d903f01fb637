import { describe, expect, it } from "vitest";
import { createHashPasswordCommand } from "@/cli/commands/hash-password";
import { parsePasswordHash, verifyPassword } from "@/lib/auth/password";

const run = async (stdin: string) => {
  const out: string[] = [];
  const code = await createHashPasswordCommand(async () => stdin).run([], { out: (t) => out.push(t), err: () => undefined });
  return { code, out: out.join("") };
};

describe("hash-password", () => {
  it("prints an ARBOR_PASSWORD_HASH of stdin without its trailing newline", async () => {
    const { code, out } = await run(" my pass \n");
    expect(code).toBe(0);
    expect(await verifyPassword(" my pass ", parsePasswordHash(out.trim()))).toBe(true);
    expect(out).not.toContain("my pass");
  });
  it("refuses an empty password", async () => {
    await expect(run("\n")).rejects.toThrow("no password on stdin");
  });
});
