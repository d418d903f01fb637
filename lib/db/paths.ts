/** Where Arbor keeps local data: `.data/` at the project root unless ARBOR_DATA_DIR says otherwise. */
import path from "node:path";
import { env } from "@/lib/env";

export function dataDir(): string {
  return path.resolve(env.ARBOR_DATA_DIR ?? path.join(process.cwd(), ".data"));
}
