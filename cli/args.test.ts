import { describe, expect, it } from "vitest";
import { parseArgs } from "@/cli/args";
import { UsageError } from "@/cli/command";

const spec = {
  positionals: ["FILE"],
  options: {
    json: { type: "boolean" },
    leaf: { type: "string" },
    keep: { type: "int", required: true },
    filter: { type: "string", choices: ["a", "b"] },
  },
} as const;

const fails = (argv: string[]) => () => parseArgs(argv, spec);

describe("parseArgs (strict CLI options)", () => {
  it("parses flags, values in both forms, and positionals", () => {
    const r = parseArgs(["f.jsonl", "--json", "--leaf", "abc", "--keep=12", "--filter", "b"], spec);
    expect(r.positionals).toEqual(["f.jsonl"]);
    expect(r.options).toEqual({ json: true, leaf: "abc", keep: 12, filter: "b" });
  });

  it("`--` ends options", () => {
    expect(parseArgs(["--keep", "1", "--", "--weird-name"], spec).positionals).toEqual(["--weird-name"]);
  });

  it("rejects unknown options, short options and repeated options", () => {
    expect(fails(["f", "--keep", "1", "--nope"])).toThrow("unknown option --nope");
    expect(fails(["f", "--keep", "1", "-x"])).toThrow("unknown option -x");
    expect(fails(["f", "--keep", "1", "--keep", "2"])).toThrow("given more than once");
    expect(fails(["f", "--keep", "1", "--nope"])).toThrow(UsageError);
  });

  it("rejects missing or malformed values", () => {
    expect(fails(["f", "--keep"])).toThrow("--keep needs a value");
    expect(fails(["f", "--keep", "--json"])).toThrow("--keep needs a value");
    expect(fails(["f", "--keep", "-3"])).toThrow("non-negative integer");
    expect(fails(["f", "--keep", "1.5"])).toThrow("non-negative integer");
    expect(fails(["f", "--keep", "1", "--json=yes"])).toThrow("takes no value");
    expect(fails(["f", "--keep", "1", "--filter", "c"])).toThrow("must be one of a, b");
  });

  it("requires the positionals and required options, and no more", () => {
    expect(fails(["--keep", "1"])).toThrow("missing FILE");
    expect(fails(["f"])).toThrow("missing required option --keep");
    expect(fails(["f", "g", "--keep", "1"])).toThrow('unexpected argument "g"');
  });
});
