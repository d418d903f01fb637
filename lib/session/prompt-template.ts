/**
 * Prompt template rendering (session-engine.md §17 "Rendering").
 * Pure: no network, disk or database access. Templates arrive as strings in a PromptSet; this
 * module only substitutes `{{name}}` placeholders and normalizes whitespace.
 *
 * Contract:
 * - every `{{name}}` in the template MUST have a value in `vars`, otherwise we throw an error
 *   naming the variable (a missing summary would silently produce an empty wrapper);
 * - variables that the template never references are ignored;
 * - values are inserted verbatim (no HTML escaping), BEFORE normalization, so the normalization
 *   also applies to the substituted text (§17: "the normalization also applies to the summary").
 */

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** Substitutes placeholders and normalizes the result (session-engine.md §17 steps 1–2). */
export function renderTemplate(template: string, vars: Record<string, string> = {}): string {
  // A replacer function (not a replacement string) so "$&" and friends in values stay literal.
  const substituted = template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
    if (value === undefined) {
      throw new Error(`Prompt template variable "${name}" has no value`);
    }
    return value;
  });
  return normalizeTemplateText(substituted);
}

/**
 * The §17 normalization, in the spec's order: line endings, NBSP, trailing whitespace per line,
 * leading-indent spaces to tabs, blank-line runs, trim.
 */
export function normalizeTemplateText(text: string): string {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .replace(/\u00a0/g, " ")
    .split("\n")
    .map(normalizeLine);
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function normalizeLine(line: string): string {
  // Stripping trailing blanks also turns whitespace-only lines into empty ones.
  const stripped = line.replace(/[ \t]+$/, "");
  const indent = /^[ \t]*/.exec(stripped)?.[0] ?? "";
  if (!indent.includes("  ")) return stripped;
  // Only the leading run is touched: "  " pairs become tabs, a leftover single space stays.
  return indent.replace(/ {2}/g, "\t") + stripped.slice(indent.length);
}
