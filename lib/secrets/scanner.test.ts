/**
 * The scanner finds every kind of FAKE credential it knows (test/secret-fakes.ts) where a
 * session holds it (prose, an env line, a URL, a JSON-encoded line), at the right offsets, and
 * its pre-filter never hides what secretlint itself would report.
 */
import { lintSource } from "@secretlint/core";
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import { describe, expect, it } from "vitest";
import { fakeSecrets } from "@/test/secret-fakes";
import { candidateRules, mayHoldSecret } from "./candidates";
import { kindOf } from "./kinds";
import { SECRETLINT_CONFIG, scanText } from "./scanner";

/** secretlint's own answer with every rule, without Arbor's pre-filter: the short ids of the rules that report. */
async function library(text: string): Promise<string[]> {
  const r = await lintSource({
    source: { content: text, filePath: "entry.txt", ext: ".txt", contentType: "text" },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
  });
  return r.messages.map((m) => m.ruleId.replace("@secretlint/secretlint-rule-", ""));
}

/** The contexts a credential turns up in: an assignment, quotes, JSON (escaped), markdown, a shell line. */
const CONTEXTS: ((s: string) => string)[] = [
  (s) => s,
  (s) => `Here is the key you asked for: ${s}. Keep it safe.`,
  (s) => `"${s}"`,
  (s) => JSON.stringify({ type: "message", message: { role: "user", content: [{ type: "text", text: `token:\n${s}\n` }] } }),
  (s) => `\`\`\`\n${s}\n\`\`\``,
  (s) => `(${s})`,
  (s) => `x=${s};`,
];

describe("scanText", () => {
  const fakes = fakeSecrets(11);

  it("knows each kind it claims: every fake is found once, with its rule, kind and exact offsets", async () => {
    // Every rule of the preset has a fake, but GCP's (it reads `.json` and `.p12` files only) and the
    // comment filter (it reports nothing).
    const ruleIds = presetRules.map((r) => r.meta.id.replace("@secretlint/secretlint-rule-", ""));
    expect(new Set(fakes.map((f) => f.rule.split("/")[0]))).toEqual(new Set(ruleIds.filter((id) => id !== "gcp" && id !== "filter-comments")));
    for (const f of fakes) {
      const text = `before ${f.text} after`;
      const found = await scanText(text);
      expect(found.map((m) => m.rule), f.rule).toEqual([f.rule]);
      const [m] = found;
      expect(text.slice(m!.start, m!.end), f.rule).toBe(f.value);
      expect(m!.kind).toBe(kindOf(f.rule));
      expect(m!.kind).not.toContain("/");
    }
  });

  it("finds several secrets of one text in order, without overlaps", async () => {
    const text = fakes.map((f) => f.text).join("\n");
    const found = await scanText(text);
    expect(found.map((m) => text.slice(m.start, m.end))).toEqual(fakes.map((f) => f.value));
  });

  it("reports nothing in ordinary text, placeholders and documented examples", async () => {
    const texts = [
      "Run the task-123 tests with test_foo and check the success flag at https://example.com/docs/path.",
      "export ANTHROPIC_API_KEY=sk-ant-...  # your key here",
      "postgres://localhost:5432/app and https://user@host.test/x",
      "aws_account_id = 123456789012",
      "The AWS docs use AKIAIOSFODNN7EXAMPLE as an example access key id.",
    ];
    for (const t of texts) expect(await scanText(t), t).toEqual([]);
  });
});

describe("mayHoldSecret (the pre-filter)", () => {
  it("lets every fake through, naming its rule, in every context where secretlint reports it", async () => {
    let reports = 0;
    for (const seed of [1, 2, 3]) {
      for (const f of fakeSecrets(seed)) {
        for (const context of CONTEXTS) {
          const text = context(f.text);
          const reported = await library(text);
          reports += reported.length;
          if (reported.length > 0) expect(mayHoldSecret(text), `${f.rule} in ${text.slice(0, 60)}`).toBe(true);
          for (const rule of reported) expect([...candidateRules(text)], `${f.rule} in ${text.slice(0, 60)}`).toContain(rule);
        }
      }
    }
    expect(reports).toBeGreaterThanOrEqual(3 * fakeSecrets(1).length * (CONTEXTS.length - 1));
  });

  it("rules out text that only looks like the anchors (so the full scan is rare)", () => {
    for (const t of ["task-42 test_case success secret access", "https://example.com/a/b", "A-Z AKIA", "v1.2.3 SG dapper api"]) {
      expect(mayHoldSecret(t), t).toBe(false);
    }
  });
});
