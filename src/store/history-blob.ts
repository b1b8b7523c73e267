// How an odds history chunk is kept in the store: as it is behind a marker byte, or deflated (chunks written before version 2).
import { inflateRawSync } from 'node:zlib';

/**
 * How a history chunk is stored. Chunks of version 2 are already compact (5-7 bytes a change, the
 * change log's own form): they are stored as they are, behind one marker byte. Deflating them
 * cost ~70 µs a call whatever the size (a new zlib stream each time: 2,000 chunks a second under a
 * capacity feed, 15% of the writer thread) to save a third of a few hundred bytes. Chunks stored
 * before (version 1, 29 bytes a change) were deflated and are still read.
 */
export function storedHistory(data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(data.byteLength + 1);
  out[0] = STORED_AS_IS;
  out.set(data, 1);
  return out;
}

/** A stored chunk's bytes, inflated if it was deflated. */
export function readStoredHistory(data: Uint8Array): Uint8Array {
  return data[0] === STORED_AS_IS ? data.subarray(1) : inflateRawSync(data);
}

/**
 * The marker of a chunk stored as it is: no raw deflate stream starts with this byte (its first
 * block's type would be 0b11, which RFC 1951 3.2.3 reserves), so it cannot be taken for one.
 */
export const STORED_AS_IS = 0xff;
