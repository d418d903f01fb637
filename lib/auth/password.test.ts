import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("scrypt password hashing", () => {
  it("verifies the right password and refuses others", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
    expect(await verifyPassword("Correct horse battery staple", stored)).toBe(false);
  });

  it("keeps only a salted hash: a random salt per hash, never the password", async () => {
    const a = await hashPassword("same");
    const b = await hashPassword("same");
    expect(a.salt.equals(b.salt)).toBe(false);
    expect(a.hash.equals(b.hash)).toBe(false);
    expect(a.hash.length).toBe(32);
    expect(JSON.stringify(a)).not.toContain("same");
  });

  it("treats spaces and Unicode as part of the password (NFC-normalised)", async () => {
    const stored = await hashPassword(" café ");
    expect(await verifyPassword(" cafe\u0301 ", stored)).toBe(true);
    expect(await verifyPassword("café", stored)).toBe(false);
  });
});

describe("ARBOR_PASSWORD_HASH text form", () => {
  it("round-trips and verifies", async () => {
    const { formatPasswordHash, parsePasswordHash } = await import("./password");
    const text = formatPasswordHash(await hashPassword("pw"));
    expect(text).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword("pw", parsePasswordHash(text))).toBe(true);
  });
  it("refuses a malformed value, saying what is expected", async () => {
    const { parsePasswordHash } = await import("./password");
    expect(() => parsePasswordHash("pw")).toThrow("expected scrypt$N$r$p$salt$hash");
    expect(() => parsePasswordHash("scrypt$1000$8$1$c2FsdHNhbHQ$aGFzaA")).toThrow("scrypt parameters out of range");
    expect(() => parsePasswordHash("scrypt$32768$8$1$c2FsdHNhbHQ$aGFzaA")).toThrow("exactly 32");
  });
});
