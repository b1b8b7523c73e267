// The content codings of JSON payloads (br, gzip): levels chosen for speed, compression on the loop or the thread pool.
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

export type Coding = 'br' | 'gzip';

/** Smaller bodies are sent as they are (decisions.md: every JSON response of 1 KB or more). */
export const MIN_CODED_BYTES = 1024;

/**
 * Levels for speed (bench/README.md, "Content codings"): on a 420 KB odds payload brotli 4 takes
 * about half the time of 5 and still makes it ~14 times smaller; gzip 4 is 1/12 at about half the
 * cost of 6. A payload is compressed once per change, but a ticking live event changes several
 * times a second, so speed matters more than the last few percent.
 */
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 4;

/**
 * Up to this size a body is compressed on the event loop (tens of microseconds); larger ones go
 * to libuv's thread pool, so a 400 KB payload (a few ms) does not stall every other request.
 */
export const LOOP_COMPRESS_LIMIT = 16 * 1024;

function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

const GZIP_OPTIONS = { level: GZIP_LEVEL };

/** `body` in a coding: at once for a small body, from the thread pool for a large one. */
export function compress(coding: Coding, body: Buffer): Buffer | Promise<Buffer> {
  if (body.length <= LOOP_COMPRESS_LIMIT) {
    return coding === 'br' ? brotliCompressSync(body, brotliOptions(body.length)) : gzipSync(body, GZIP_OPTIONS);
  }
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer): void => (err === null ? resolve(out) : reject(err));
    if (coding === 'br') brotliCompress(body, brotliOptions(body.length), done);
    else gzip(body, GZIP_OPTIONS, done);
  });
}
