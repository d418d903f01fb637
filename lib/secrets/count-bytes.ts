/**
 * How many secrets a file holds ("Download original" says it before the download): the file's
 * bytes as UTF-8 lines, each scanned as a JSON value when it is one (every string in it), as
 * text otherwise. The same scanner and pre-filter as the import; no I/O of its own.
 */
import { mayHoldSecret } from "./candidates";
import { scanText } from "./scanner";
import { scanValue } from "./scan-value";

async function secretsInLine(line: string): Promise<number> {
  if (!mayHoldSecret(line)) return 0;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return (await scanText(line)).length;
  }
  return (await scanValue(value)).length;
}

/** The number of secrets in a file given as byte chunks. */
export async function countSecretsInBytes(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  const decoder = new TextDecoder();
  let rest = "";
  let count = 0;
  for await (const chunk of chunks) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) count += await secretsInLine(line);
  }
  rest += decoder.decode();
  if (rest !== "") count += await secretsInLine(rest);
  return count;
}
