/**
 * The light page's routes on the real database: the skeleton (whole and as a
 * `?since=` delta), the contents of chosen entries, and §16.3 search over whole entry texts.
 */
import { describe, expect, it } from "vitest";
import { appendEntries, branch, createSession, loadEntries, readLiveSession } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { LineSplitter, parseStreamBlock, parseStreamHeader } from "@/lib/session-view/skeleton-stream";
import { pagePayload } from "@/lib/session-view/server";
import { decodeRows } from "@/lib/session-view/skeleton-wire";
import type { WireRow } from "@/lib/types/session-page";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-messages";
import type { EntriesPayload, SkeletonPayload } from "@/lib/types/session-page";
import { useTestDatabase } from "@/test/db";
import { GET as entries } from "../entries/route";
import { GET as search } from "../search/route";
import { GET as skeleton } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const req = (url: string) => new Request(`http://localhost${url}`);

async function seeded() {
  const { id } = await createSession({ title: "Light" });
  await appendEntries({
    sessionId: id,
    expectedLeafId: null,
    entries: [
      { type: "message", message: userMsg("list the sources") },
      { type: "message", message: assistantMsg("", { toolCalls: [toolCall("c1", "ls", { path: "src" })], stopReason: "toolUse" }) },
      { type: "message", message: toolResultMsg("c1", "alpha.ts\nbeta-secret-word.ts", { toolName: "ls" }) },
      { type: "message", message: assistantMsg("Two files.") },
    ],
  });
  return { id, stored: await loadEntries({ sessionId: id }) };
}

describe("GET /api/sessions/[id]/skeleton", () => {
  it("returns every entry's skeleton row, no contents, and the meter", async () => {
    const { id, stored } = await seeded();
    const res = await skeleton(req(`/api/sessions/${id}/skeleton`), params(id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as SkeletonPayload;
    // rev is the session's data version in the database (sessions.rev), whatever its number.
    const [row] = await getDb().$queryRaw<{ rev: number }[]>`SELECT rev FROM sessions WHERE id = ${id}`;
    expect(body).toMatchObject({ count: 4, from: 0, rev: row!.rev, session: { id, leafId: stored.at(-1)!.id } });
    const rows = decodeRows(body.rows);
    expect(rows).toEqual(resolveSkeleton(stored).map(({ toolCallId: _, ...r }) => r));
    // A tool-call-only assistant reads by its calls (session-engine.md §16.2, Arbor's extension), not "(no content)".
    expect(rows[1]!.text).toBe("assistant: ls(src)");
    expect(rows[2]!.text).toBe("[ls: src]");
    // The model the next turn will use comes along, for the picker and the meter.
    expect(body.model).toMatchObject({ ref: expect.stringMatching(/.\/./), contextWindow: expect.any(Number) });
    expect(JSON.stringify(body)).not.toContain("beta-secret-word");
    expect(body.meter).toMatchObject({ estimated: false, lastUsageIndex: 3 });
  });

  it("with ?since= returns only the entries appended after that count", async () => {
    const { id, stored } = await seeded();
    await appendEntries({ sessionId: id, expectedLeafId: stored.at(-1)!.id, entries: [{ type: "message", message: userMsg("and then?") }] });
    const body = (await (await skeleton(req(`/api/sessions/${id}/skeleton?since=4`), params(id))).json()) as SkeletonPayload;
    expect(body.from).toBe(4);
    expect(body.count).toBe(5);
    expect(decodeRows(body.rows).map((r) => r.text)).toEqual(["user: and then?"]);
    // A count the session does not have (e.g. the client is ahead after a failed write): everything.
    const all = (await (await skeleton(req(`/api/sessions/${id}/skeleton?since=99`), params(id))).json()) as SkeletonPayload;
    expect(all.from).toBe(0);
    expect(all.rows).toHaveLength(5);
  });

  it("answers 404 for an unknown session", async () => {
    expect((await skeleton(req("/api/sessions/nope/skeleton"), params("nope"))).status).toBe(404);
  });

  it("with ?format=ndjson streams the header, then the rows in blocks (a large session's tree)", async () => {
    const { id, stored } = await seeded();
    const res = await skeleton(req(`/api/sessions/${id}/skeleton?format=ndjson`), params(id));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const splitter = new LineSplitter();
    const lines = splitter.push(await res.text());
    splitter.end(lines.length + 1);
    const header = parseStreamHeader<SkeletonPayload>(lines[0]!);
    expect(header).toMatchObject({ count: 4, from: 0, session: { id } });
    expect(header.rows).toBeUndefined();
    const rows = lines.slice(1).flatMap((l, i) => decodeRows(parseStreamBlock(l, i + 2)));
    expect(rows).toEqual(resolveSkeleton(stored).map(({ toolCallId: _, ...r }) => r));
    const both = await skeleton(req(`/api/sessions/${id}/skeleton?format=ndjson&since=2`), params(id));
    expect(both.status).toBe(400);
    expect(await both.text()).toContain("format=ndjson sends the whole skeleton: leave out since");
    expect((await skeleton(req(`/api/sessions/${id}/skeleton?format=xml`), params(id))).status).toBe(400);
  });

  it("with ?format=ndjson&from&to sends only those rows, after a header that says where they start", async () => {
    const { id, stored } = await seeded();
    const rowsOf = async (query: string) => {
      const res = await skeleton(req(`/api/sessions/${id}/skeleton?format=ndjson${query}`), params(id));
      expect(res.status).toBe(200);
      const lines = new LineSplitter().push(await res.text());
      const header = parseStreamHeader<SkeletonPayload>(lines[0]!);
      return { header, rows: lines.slice(1).flatMap((l, i) => decodeRows(parseStreamBlock(l, i + 2))) };
    };
    const all = resolveSkeleton(stored).map(({ toolCallId: _, ...r }) => r);
    const middle = await rowsOf("&from=1&to=3");
    expect(middle.header).toMatchObject({ count: 4, from: 1 });
    expect(middle.rows).toEqual(all.slice(1, 3));
    // Parts read one after the other give the whole skeleton; `to` is cut at the count.
    const parts = [await rowsOf("&from=0&to=2"), await rowsOf("&from=2&to=50")];
    expect(parts.flatMap((p) => p.rows)).toEqual(all);
    expect((await rowsOf("&from=9&to=12")).rows).toEqual([]);
    for (const [query, message] of [
      ["&from=3", "from and to go together"],
      ["&from=3&to=1", "from must not be after to"],
      ["&from=-1&to=2", "from must be an entry index"],
    ] as const) {
      const res = await skeleton(req(`/api/sessions/${id}/skeleton?format=ndjson${query}`), params(id));
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    const json = await skeleton(req(`/api/sessions/${id}/skeleton?from=0&to=2`), params(id));
    expect(json.status).toBe(400);
    expect(await json.text()).toContain("from and to go with format=ndjson");
  });

  it("the page's rows and meter follow an appended entry and a move of the leaf (kept per version, not stale)", async () => {
    const { id, stored } = await seeded();
    const rowsOf = (p: { rowsJson: string }) => decodeRows(JSON.parse(p.rowsJson) as WireRow[]);
    const before = pagePayload((await readLiveSession({ sessionId: id }))!);
    expect(rowsOf(before).map((r) => r.id)).toEqual(stored.map((e) => e.id));
    expect(pagePayload((await readLiveSession({ sessionId: id }))!)).toEqual(before);
    await appendEntries({ sessionId: id, expectedLeafId: stored.at(-1)!.id, entries: [{ type: "message", message: userMsg("and the tests?") }] });
    const appended = pagePayload((await readLiveSession({ sessionId: id }))!);
    expect(rowsOf(appended).map((r) => r.text).at(-1)).toBe("user: and the tests?");
    expect(appended.meter).not.toEqual(before.meter);
    await branch({ sessionId: id, expectedLeafId: rowsOf(appended).at(-1)!.id, targetId: stored[0]!.id });
    const moved = pagePayload((await readLiveSession({ sessionId: id }))!);
    expect(moved.rowsJson).toBe(appended.rowsJson);
    expect(moved.meter).toMatchObject({ estimated: true, lastUsageIndex: null });
  });

  it("the page of a session over the embedding limit brings only the tail of the current path", async () => {
    const { id, stored } = await seeded();
    const view = (await readLiveSession({ sessionId: id }))!;
    expect(pagePayload(view).pending).toBeUndefined();
    const page = pagePayload(view, undefined, 2);
    expect(page).toMatchObject({ pending: true, count: 4, from: 0 });
    // Every row of this short path is within two chat pages: the whole path, root first.
    expect(page.rowsJson).not.toContain("beta-secret-word");
    expect(decodeRows(JSON.parse(page.rowsJson) as WireRow[]).map((r) => r.id)).toEqual(stored.map((e) => e.id));
  });
});

describe("GET /api/sessions/[id]/entries", () => {
  it("returns the named entries as stored, in request order, and names the missing ones", async () => {
    const { id, stored } = await seeded();
    const ids = [stored[2]!.id, "no-such-entry", stored[0]!.id];
    const res = await entries(req(`/api/sessions/${id}/entries?ids=${ids.join(",")}`), params(id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as EntriesPayload;
    expect(body.entries).toEqual([stored[2], stored[0]]);
    expect(body.missing).toEqual(["no-such-entry"]);
    expect(body.deferred).toEqual([]);
  });
});

describe("GET /api/sessions/[id]/search", () => {
  it("finds words in a tool's output, which no row text carries (§16.3)", async () => {
    const { id, stored } = await seeded();
    const body = (await (await search(req(`/api/sessions/${id}/search?q=SECRET-word`), params(id))).json()) as { ids: string[] };
    expect(body.ids).toEqual([stored[2]!.id]);
    const none = (await (await search(req(`/api/sessions/${id}/search?q=%20`), params(id))).json()) as { ids: string[] };
    expect(none.ids).toEqual([]);
  });
});
