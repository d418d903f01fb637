/**
 * How the pieces of a kept original file are stored (`session_sources.compression`), one codec
 * per value: "br" (brotli at quality 0, what imports write), "gzip" (level 1, what imports
 * wrote before; a sync append keeps a source's own codec), "none" / null (as is).
 *
 * Why brotli quality 0: on the bench's 81 MB session in 1 MB pieces it took 159 ms against
 * gzip level 1's 424 ms, for 17.2 MB against 18.9 MB, and reads back faster (125 against
 * 161 ms). Compressing runs on Node's thread pool while an import streams, and on a machine of
 * two cores those 0.3 s were taken from the import and the database.
 */
import { promisify } from "node:util";
import { brotliCompress, brotliDecompress, constants, gunzip, gzip } from "node:zlib";

/** The codec new originals are stored with. */
export const SOURCE_COMPRESSION = "br";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
const brotliAsync = promisify(brotliCompress);
const unbrotliAsync = promisify(brotliDecompress);

/** One piece of an original as `compression` stores it. */
export async function encodeSourceChunk(compression: string | null, data: Buffer): Promise<Buffer> {
  if (compression === "br") {
    return brotliAsync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  }
  return compression === "gzip" ? gzipAsync(data, { level: 1 }) : data;
}

/** The original bytes of a piece stored as `compression` stores it. */
export async function decodeSourceChunk(compression: string | null, data: Uint8Array): Promise<Uint8Array> {
  if (compression === "br") return unbrotliAsync(data);
  return compression === "gzip" ? gunzipAsync(data) : data;
}
