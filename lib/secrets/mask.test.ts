/**
 * Masking: a masked value, entry or text holds none of the secret, keeps what names it, and the
 * browser's masking with stored findings gives the same text as the server's (which scans).
 */
import { describe, expect, it } from "vitest";
import { fakeSecrets } from "@/test/secret-fakes";
import { secretSession } from "@/test/secret-session";
import { maskSecrets, maskSecretsInText } from "./index";
import { maskEntryWithFindings, maskValue, toPointer } from "./mask";
import { scanEntry } from "./scan-value";

describe("maskValue", () => {
  it("keeps the type prefix, hides the rest, shows the last four only of long secrets", () => {
    const token = `ghp_${"FAKEabcdefghijklmnopqrstuvwxyz012345".slice(0, 36)}`;
    expect(maskValue(token)).toBe("ghp_********2345");
    expect(maskValue("FAKEpassw0rd")).toBe("********");
    expect(maskValue("AKIAFAKE000000000000")).toBe("AKIA********");
  });

  it("keeps a private key's BEGIN and END lines only", () => {
    const key = fakeSecrets(4).find((f) => f.rule === "privatekey/PrivateKey")!.value;
    const masked = maskValue(key);
    expect(masked.split("\n")[0]).toBe("-----BEGIN RSA PRIVATE KEY-----");
    expect(masked.split("\n").at(-1)).toBe("-----END RSA PRIVATE KEY-----");
    expect(masked).not.toContain("MII");
  });

  it("never contains a fake, for every kind", () => {
    for (const f of fakeSecrets(5)) {
      const masked = maskValue(f.value);
      expect(masked, f.rule).not.toContain(f.value);
      expect(masked.length, f.rule).toBeLessThan(Math.max(f.value.length, 40));
    }
  });
});

describe("maskSecrets and scanEntry", () => {
  const s = secretSession(6);

  it("finds each placed secret in its entry and field", async () => {
    const found = [];
    for (const e of s.entries) for (const f of await scanEntry(e)) found.push({ entryId: e.id, field: f.field, rule: f.rule });
    expect(found).toEqual(s.expected.map(({ entryId, field, rule }) => ({ entryId, field, rule })));
  });

  it("masks every secret of every entry (text, tool arguments, tool output, thinking, custom, summary)", async () => {
    const out = JSON.stringify(await maskSecrets(s.entries));
    for (const p of s.expected) expect(out, p.rule).not.toContain(p.value);
    expect(out).toContain("ghp_********");
  });

  it("returns the same object when nothing is found, and leaves the input unchanged", async () => {
    const plain = { a: ["hello", { b: "https://example.com/x" }] };
    expect(await maskSecrets(plain)).toBe(plain);
    const before = JSON.stringify(s.entries);
    await maskSecrets(s.entries);
    expect(JSON.stringify(s.entries)).toBe(before);
  });

  it("masks a plain text (a summary prompt) the same way", async () => {
    const fakes = fakeSecrets(6);
    const prompt = fakes.map((f) => `[user]: ${f.text}`).join("\n");
    const masked = await maskSecretsInText(prompt);
    for (const f of fakes) expect(masked, f.rule).not.toContain(f.value);
    expect(masked.split("\n").length).toBeGreaterThanOrEqual(fakes.length);
  });

  it("the browser's masking with stored findings equals the server's", async () => {
    for (const e of s.entries) {
      const findings = await scanEntry(e);
      expect(JSON.stringify(maskEntryWithFindings(e, findings))).toBe(JSON.stringify(await maskSecrets(e)));
    }
  });

  it("leaves a pruned tool result's notice alone (the findings were in the content pruning replaced)", async () => {
    const e = s.entries.find((x) => s.expected.some((p) => p.entryId === x.id && p.field === "tool output" && x.type === "message"))!;
    const findings = await scanEntry(e);
    const pruned = { ...e, message: { ...(e as { message: object }).message, content: [{ type: "text", text: "[output pruned]" }], prunedAt: 1 } };
    expect(maskEntryWithFindings(pruned, findings)).toBe(pruned);
  });

  it("writes JSON Pointers (RFC 6901)", () => {
    expect(toPointer(["message", "content", 2, "a/b~c"])).toBe("/message/content/2/a~1b~0c");
  });
});
