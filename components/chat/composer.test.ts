import { describe, expect, it } from "vitest";
import { parseSlashCommand } from "./composer";

describe("/compact slash command (ui.md)", () => {
  it("recognises /compact with and without a focus", () => {
    expect(parseSlashCommand("/compact")).toEqual({ command: "compact" });
    expect(parseSlashCommand("  /compact   keep the API decisions \n")).toEqual({ command: "compact", focus: "keep the API decisions" });
    expect(parseSlashCommand("/compact\nmulti\nline")).toEqual({ command: "compact", focus: "multi\nline" });
  });
  it("leaves ordinary messages and look-alikes alone", () => {
    expect(parseSlashCommand("please /compact this")).toBeUndefined();
    expect(parseSlashCommand("/compacted")).toBeUndefined();
    expect(parseSlashCommand("hello")).toBeUndefined();
  });
});

