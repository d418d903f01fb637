/**
 * What `next build` traced into the server's output (the `.nft.json` lists beside each route in
 * .next/server, written by the build this e2e run made): the code each route needs and its
 * packages, never the whole project nor the local data folder. A dynamic file-system path the
 * tracer cannot scope makes it take in every file of the project — and the data folder with it,
 * where a symlink cycle once made a build grow past 6 GB — so run-time paths are marked
 * `/*turbopackIgnore: true*\/` and next.config.ts excludes `.data` (outputFileTracingExcludes).
 * Only the build can show this, so it is checked here, on the build the e2e apps run.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./test";

const SERVER = path.join(process.cwd(), ".next", "server");

function traces(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".nft.json"))
    .map((f) => path.join(dir, f));
}

test("no route's trace takes in the data folder or files no code reads", () => {
  const files = traces(SERVER);
  expect(files.length).toBeGreaterThan(10);
  const strays = new Map<string, string[]>();
  for (const file of files) {
    const list = (JSON.parse(readFileSync(file, "utf8")) as { files: string[] }).files;
    for (const rel of list) {
      const abs = path.resolve(path.dirname(file), rel);
      const inProject = path.relative(process.cwd(), abs);
      if (inProject.startsWith("..") || inProject.startsWith(`node_modules${path.sep}`) || inProject.startsWith(`.next${path.sep}`)) continue;
      // Signs of the whole project: the data folder, docs, tests, the e2e specs, the README.
      const top = inProject.split(path.sep)[0] ?? "";
      if ([".data", "docs", "test", "e2e", "bench", "README.md"].includes(top)) {
        const route = path.relative(SERVER, file);
        strays.set(route, [...(strays.get(route) ?? []), inProject]);
      }
    }
  }
  const summary = [...strays].map(([route, list]) => `${route}: ${list.length} files, e.g. ${list.slice(0, 3).join(", ")}`);
  expect(summary).toEqual([]);
});
