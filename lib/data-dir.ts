/** Where Arbor keeps local data: `.data/` at the project root unless ARBOR_DATA_DIR says otherwise. */
import path from "node:path";
import { env } from "@/lib/env";

export function dataDir(): string {
  // A run-time data folder: the build must not trace (bundle) it.
  return path.resolve(/*turbopackIgnore: true*/ env.ARBOR_DATA_DIR ?? path.join(/*turbopackIgnore: true*/ process.cwd(), ".data"));
}
