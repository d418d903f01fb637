/**
 * The OpenAI-compatible request body with its message list assembled from text kept per prompt
 * message, instead of the provider converting and serializing every message on every call.
 *
 * Why: a long context is sent again on every call. The provider turns the whole prompt into its
 * wire messages and `JSON.stringify`s the body each time (a 10k-message context: 4.6 MB, tens of
 * ms before the request leaves). The prompt's message objects are shared between calls
 * (lib/llm/provider-prompt.ts), so each one's wire text is made once and kept with it.
 *
 * How (contract):
 * - `splicedPromptModel(inner)` calls `inner.doStream` with a one-message placeholder prompt (a
 *   user text holding a unique marker) and registers the real messages' wire text under that
 *   marker for the duration of the call; `splicePromptFetch(inner)` finds the placeholder's wire
 *   text in the body the provider serialized and puts the real list in its place, as UTF-8 bytes.
 * - Each message's wire text is `JSON.stringify(convertToOpenAICompatibleChatMessages([m]))`
 *   without its brackets: the provider's own conversion, which maps every prompt message on its
 *   own (no state between messages), and JSON.stringify of an array is its elements' texts
 *   joined by commas. The body is therefore byte for byte what the provider would have sent
 *   (proven against the unwrapped provider by lib/llm/spliced-prompt.test.ts).
 * - A body with the marker whose call is no longer registered fails the request rather than
 *   sending the placeholder.
 * - Only `doStream` is spliced (Arbor's calls all stream, lib/llm/stream-assistant.ts);
 *   `doGenerate` goes to the provider unchanged.
 * - Memory: the wire text is kept as UTF-8 bytes (outside the JS heap, about the size of the
 *   message's text) as long as its prompt message lives (a WeakMap), i.e. as long as the
 *   session's messages are held (the read model, lib/db/read-model). A call made inside
 *   `keptWireBytes.run(report, …)` reports the bytes of the wire texts it made (once per call,
 *   before the request is sent), so the chat glue can count them against the session's cache
 *   budget.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { convertToOpenAICompatibleChatMessages } from "@ai-sdk/openai-compatible/internal";

const wireTexts = new WeakMap<LanguageModelV3Message, Buffer>();

/** Who is told how many bytes of wire text a call made and kept (see the header). */
export const keptWireBytes = new AsyncLocalStorage<(bytes: number) => void>();

/** The message's wire text as UTF-8 bytes (kept as bytes: a call then only copies them); `made` counts new ones. */
function wireTextOf(message: LanguageModelV3Message, made: { bytes: number }): Buffer {
  let text = wireTexts.get(message);
  if (text === undefined) {
    text = Buffer.from(JSON.stringify(convertToOpenAICompatibleChatMessages([message])).slice(1, -1), "utf8");
    wireTexts.set(message, text);
    made.bytes += text.length;
  }
  return text;
}

const COMMA = Buffer.from(",");
const OPEN = Buffer.from("[");
const CLOSE = Buffer.from("]");

/** The marker's start as it appears in a serialized body (a NUL no real message begins with). */
const MARKER_PREFIX = "\u0000arbor-spliced-prompt-";
const markerPrompt = (n: number): LanguageModelV3Prompt => [{ role: "user", content: [{ type: "text", text: `${MARKER_PREFIX}${n}` }] }];
const wireOf = (prompt: LanguageModelV3Prompt) => JSON.stringify(convertToOpenAICompatibleChatMessages(prompt));
const WIRE_PREFIX = wireOf(markerPrompt(0)).slice(0, -'0"}]'.length);

/** Calls in flight: the placeholder's wire text → the real messages' wire texts. */
const inFlight = new Map<string, Buffer[]>();
let calls = 0;

export function splicedPromptModel(inner: LanguageModelV3): LanguageModelV3 {
  return {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    get supportedUrls() {
      return inner.supportedUrls;
    },
    doGenerate: (options) => inner.doGenerate(options),
    async doStream(options) {
      const placeholder = markerPrompt(++calls);
      const key = wireOf(placeholder);
      // The list as byte pieces: "[", each message's text with commas between, "]".
      const texts: Buffer[] = [OPEN];
      const made = { bytes: 0 };
      for (const message of options.prompt) {
        const text = wireTextOf(message, made);
        // A message with no wire form (a tool message of approvals only) adds nothing.
        if (text.length === 0) continue;
        if (texts.length > 1) texts.push(COMMA);
        texts.push(text);
      }
      texts.push(CLOSE);
      if (made.bytes > 0) keptWireBytes.getStore()?.(made.bytes);
      inFlight.set(key, texts);
      try {
        return await inner.doStream({ ...options, prompt: placeholder });
      } finally {
        inFlight.delete(key);
      }
    },
  };
}

/**
 * Bodies of at least this many bytes are handed over in blocks (see splicePromptFetch): a
 * 10k-message context is ~4.6 MB. The registry's fetch sends block bodies through node:http
 * (upload-fetch.ts), queuing every block at once; undici, with a fetch the caller supplies,
 * streams them. As one buffer undici had copied it twice more before the upload.
 */
export const STREAM_BODY_ABOVE = 1024 * 1024;
/** Size of the blocks a streamed body is written in. */
const BLOCK = 256 * 1024;

/** The pieces as blocks of about BLOCK bytes, each made when the upload asks for it. */
async function* blocksOf(pieces: readonly Buffer[]): AsyncGenerator<Buffer> {
  let block: Buffer[] = [];
  let size = 0;
  for (const piece of pieces) {
    block.push(piece);
    size += piece.length;
    if (size < BLOCK) continue;
    yield Buffer.concat(block, size);
    block = [];
    size = 0;
  }
  if (size > 0) yield Buffer.concat(block, size);
}

/**
 * A fetch that puts the registered message list in place of the placeholder (see the header).
 * The body is the same bytes either way: one buffer below `streamAbove` bytes; above, the blocks
 * of blocksOf with the body's exact `content-length` (so the request's headers are what a buffer
 * gets, no chunked encoding). A block body cannot be sent again, so a 307/308 redirect is not
 * followed for it (neither by upload-fetch.ts nor by undici); only contexts of megabytes go that way.
 */
export function splicePromptFetch(inner: typeof fetch, streamAbove = STREAM_BODY_ABOVE): typeof fetch {
  return (input, init) => {
    const body = init?.body;
    if (typeof body !== "string") return inner(input, init);
    const at = body.indexOf(WIRE_PREFIX);
    if (at < 0) return inner(input, init);
    const end = body.indexOf("]", at);
    const key = body.slice(at, end + 1);
    const texts = inFlight.get(key);
    if (!texts) return Promise.reject(new Error("Arbor could not assemble the request: its message list is no longer available"));
    const pieces = [Buffer.from(body.slice(0, at), "utf8"), ...texts, Buffer.from(body.slice(at + key.length), "utf8")];
    let total = 0;
    for (const piece of pieces) total += piece.length;
    if (total < streamAbove) return inner(input, { ...init, body: Buffer.concat(pieces, total) });
    const headers = new Headers(init?.headers);
    headers.set("content-length", String(total));
    // `duplex` is undici's option for a streamed request body (not in lib.dom's RequestInit).
    const streamed = { ...init, headers, body: blocksOf(pieces), duplex: "half" } as unknown as RequestInit;
    return inner(input, streamed);
  };
}
