/**
 * The skeleton as lines (skeleton-stream.ts): what the route writes reads back as the same
 * rows, whatever the pieces the network delivers; a damaged stream is a clear error naming the line.
 */
import { describe, expect, it } from "vitest";
import { LineSplitter, parseStreamBlock, parseStreamHeader, skeletonLines } from "@/lib/session-view/skeleton-stream";
import { decodeRows } from "@/lib/session-view/skeleton-wire";
import { generateSession } from "@/test/generators/session";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";

function readBack(text: string, pieceSize: number) {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += pieceSize) lines.push(...splitter.push(text.slice(i, i + pieceSize)));
  splitter.end(lines.length + 1);
  const header = parseStreamHeader<{ count: number; title: string }>(lines[0]!);
  const rows = lines.slice(1).flatMap((l, i) => decodeRows(parseStreamBlock(l, i + 2)));
  return { header, rows, lines };
}

describe("streamed skeleton", () => {
  const { entries } = generateSession({ seed: 11, entries: 2500, branches: 3, compactions: true, labels: 4 });
  const skeleton = resolveSkeleton(entries).map(({ toolCallId: _, ...s }) => s);
  const text = [...skeletonLines({ count: skeleton.length, title: "T" }, skeleton, 1000)].join("");

  it("reads back the header and every row, in blocks, however the text is cut", () => {
    for (const piece of [7, 4096, text.length]) {
      const { header, rows, lines } = readBack(text, piece);
      expect(header).toEqual({ count: 2500, title: "T" });
      expect(lines).toHaveLength(4); // header + blocks of 1000, 1000 and 500
      expect(rows).toEqual(skeleton);
    }
  });

  it("names the line of a damaged block, a bad header and a cut-off stream", () => {
    expect(() => parseStreamBlock('[["a",0,".user","hi",1,0,0]', 3)).toThrow("The session's tree could not be read (line 3: not JSON)");
    expect(() => parseStreamBlock('{"rows":[]}', 2)).toThrow("line 2: a block of rows is not an array");
    expect(() => parseStreamBlock('[["a",0,".user","hi",1,0,0],["b","a",".user",5,1,0,0]]', 4)).toThrow("line 4: row 2 is not a skeleton row");
    expect(() => parseStreamHeader("[1,2]")).toThrow("line 1: the header is not an object");
    expect(() => parseStreamHeader('{"count":-1}')).toThrow("line 1: the header has no entry count");
    const splitter = new LineSplitter();
    splitter.push('{"count":1}\n[["a",0,".us');
    expect(() => splitter.end(3)).toThrow("line 3: the response ended in the middle of a line");
  });
});
