/** The Prices page's actions refuse bad prices with a message that names the field, and change nothing. */
import { describe, expect, it } from "vitest";
import { listPriceOverrides } from "@/lib/db";
import { useTestDatabase } from "@/test/db";
import { removeModelPrice, setModelPrice } from "./actions";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("price actions", () => {
  it.each([
    [{ model: "m", input: "three", output: "15" }, /Input: a price in dollars per million tokens/],
    [{ model: "m", input: "3", output: "-1" }, /Output/],
    [{ model: "m", input: "3", output: "15", cacheRead: "0.0000001" }, /Cache read.*six decimals/],
    [{ model: "", input: "3", output: "15" }, /model id is empty/],
    [{ model: "a\u0000b", input: "3", output: "15" }, /model id/],
  ])("refuses %j", async (fields, message) => {
    const result = await setModelPrice(null, form(fields));
    expect(result).toMatchObject({ ok: false, error: "invalid_input" });
    expect(result.ok ? "" : result.message).toMatch(message);
    expect(await listPriceOverrides()).toEqual([]);
  });

  it("refuses to remove a price without a model", async () => {
    expect(await removeModelPrice(null, form({ model: " " }))).toMatchObject({ ok: false, error: "invalid_input" });
  });
});
