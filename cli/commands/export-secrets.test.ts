/** `export` masks the secrets found in a session (docs/secrets.md) unless `--include-secrets`, in both formats. */
import { describe, expect, it } from "vitest";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeExportCommand } from "@/cli/commands/export";
import { importSession } from "@/lib/db";
import { useTestDatabase } from "@/test/db";
import { runCommand } from "@/test/cli-helpers";
import { chunked } from "@/test/import-helpers";
import { secretSession, secretSessionJsonl } from "@/test/secret-session";

useTestDatabase();
const exportCmd = makeExportCommand(inProcessDbRuntime());

describe("export with secrets", () => {
  it("masks them in JSONL and HTML by default, and keeps them with --include-secrets", async () => {
    const s = secretSession(41, "cli-secrets-41");
    await importSession({ source: chunked(secretSessionJsonl(s)), fileName: "s.jsonl" });
    const escaped = (v: string) => JSON.stringify(v).slice(1, -1);
    for (const format of ["jsonl", "html"]) {
      const masked = await runCommand(exportCmd, [s.header.id, "--format", format]);
      expect(masked.code).toBe(0);
      for (const p of s.expected) expect(masked.out, `${format} ${p.rule}`).not.toContain(escaped(p.value));
      expect(masked.out).toContain("ghp_********");
    }
    const full = await runCommand(exportCmd, [s.header.id, "--include-secrets"]);
    for (const p of s.expected) expect(full.out, p.rule).toContain(escaped(p.value));
  });
});
