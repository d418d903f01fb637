/**
 * A tiny strict option parser for the CLI. Anything it does not know is an error: unknown
 * options, missing or extra positionals, a value for a flag, a missing value, a repeated
 * option, a malformed integer or a value outside `choices`. Errors are UsageErrors (exit 2).
 *
 * Accepted forms: `--name value`, `--name=value`, `--flag`, and `--` to end options.
 *
 * `parseNodeArgs` is the variant for the database commands that need short options or any
 * number of positionals: node:util `parseArgs` in strict mode, its errors turned into UsageErrors.
 */
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "@/cli/command";

export type OptionSpec =
  | { type: "boolean" }
  | { type: "string"; choices?: readonly string[]; required?: boolean }
  | { type: "int"; required?: boolean };

export interface ArgSpec {
  /** Names of the required positionals, in order (e.g. ["FILE"]). */
  positionals: readonly string[];
  options: Record<string, OptionSpec>;
}

type ValueOf<O extends OptionSpec> = O extends { type: "boolean" } ? boolean : O extends { type: "int" } ? number : string;

export interface ParsedArgs<S extends ArgSpec> {
  positionals: string[];
  options: { [K in keyof S["options"]]?: ValueOf<S["options"][K]> };
}

function parseValue(name: string, spec: OptionSpec, raw: string): string | number {
  if (spec.type === "int") {
    if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} expects a non-negative integer, got "${raw}"`);
    return Number(raw);
  }
  if (spec.type === "string" && spec.choices && !spec.choices.includes(raw)) {
    throw new UsageError(`--${name} must be one of ${spec.choices.join(", ")}; got "${raw}"`);
  }
  return raw;
}

export function parseArgs<S extends ArgSpec>(argv: readonly string[], spec: S): ParsedArgs<S> {
  const positionals: string[] = [];
  const options: Record<string, string | number | boolean> = {};
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || !arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    if (!arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const opt = Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
    if (!opt) throw new UsageError(`unknown option --${name}`);
    if (Object.hasOwn(options, name)) throw new UsageError(`option --${name} given more than once`);
    if (opt.type === "boolean") {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      options[name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || raw.startsWith("--")) throw new UsageError(`option --${name} needs a value`);
      i++;
    }
    options[name] = parseValue(name, opt, raw);
  }
  const missing = spec.positionals[positionals.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}`);
  if (positionals.length > spec.positionals.length) {
    throw new UsageError(`unexpected argument "${positionals[spec.positionals.length]}"`);
  }
  for (const [name, opt] of Object.entries(spec.options)) {
    if (opt.type !== "boolean" && opt.required && !Object.hasOwn(options, name)) {
      throw new UsageError(`missing required option --${name}`);
    }
  }
  return { positionals, options: options as ParsedArgs<S>["options"] };
}

/**
 * node:util `parseArgs` with positionals allowed and strict checking (unknown options, missing
 * values and wrong types are errors); any error it throws becomes a UsageError (exit 2).
 * Counting the positionals is left to the caller.
 */
export function parseNodeArgs<const O extends NonNullable<ParseArgsConfig["options"]>>(argv: readonly string[], options: O) {
  try {
    return nodeParseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
