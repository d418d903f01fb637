/**
 * Server-action arguments nested deeper than React's decoder can take (it recurses: a few
 * thousand levels overflow the stack, an error inside Next, so a 500) are refused by the proxy
 * with a 400 before Next decodes them. The depth is counted on the body's text.
 */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { MAX_ACTION_NESTING, nestsDeeperThan } from "./action-nesting";

const deep = (n: number) => `[${"[".repeat(n)}${"]".repeat(n)}]`;

describe("nestsDeeperThan", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(nestsDeeperThan(deep(3), 4)).toBe(false);
    expect(nestsDeeperThan(deep(4), 4)).toBe(true);
    expect(nestsDeeperThan(`["${"[".repeat(1000)}", {"a": "\\"[[[[["}]`, 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":{"c":[1]}}}', 4)).toBe(false);
  });
});

function actionPost(body: string, contentType = "text/plain;charset=UTF-8") {
  return new NextRequest("http://127.0.0.1:3000/sessions/x", {
    method: "POST",
    headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000", "next-action": "0".repeat(42), "content-type": contentType },
    body,
  });
}

describe("the proxy and server actions", () => {
  it("answers 400 for arguments nested deeper than the limit, in a text or a multipart body", async () => {
    const res = await proxy(actionPost(deep(20_000)));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: `The action's arguments are nested too deeply (at most ${MAX_ACTION_NESTING} levels)`, code: "invalid_input" });
    const boundary = "----arbor";
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="0"\r\n\r\n${deep(5000)}\r\n--${boundary}--\r\n`;
    expect((await proxy(actionPost(multipart, `multipart/form-data; boundary=${boundary}`))).status).toBe(400);
  });

  it("lets ordinary arguments through to Next", async () => {
    const res = await proxy(actionPost(JSON.stringify([{ sessionId: "s", settings: { compaction: { keepRecentTokens: 5 } } }])));
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });
});
