// What the API sends for a read-model payload: its bytes, a validator for them, and their compressed forms.
import { createHash } from 'node:crypto';
import type { Coding } from './compression.js';

export interface ServedPayload {
  /**
   * The identity bytes. A cached payload's may be pooled memory: whoever sends them after the
   * current turn of the event loop holds them (ReadModel.hold).
   */
  readonly body: Buffer;
  /**
   * A validator unique to exactly these bytes within this process (an ETag's opaque part), from
   * the payload's key and version; null when only a hash of the bytes can tell.
   */
  readonly tag: string | null;
  /** The bytes in a content coding: built once per change for a cached payload, then reused. */
  encoded(coding: Coding): Buffer | Promise<Buffer>;
}

/**
 * The version-independent part of a cached payload's tag: the process's nonce and a digest of the
 * cache key (event id, kind, format, base URL). Versions restart with the process and differ
 * between API nodes, so the nonce keeps a tag from another process from ever matching.
 */
export function tagPrefix(nonce: string, key: string): string {
  return `${nonce}.${createHash('sha1').update(key).digest('base64url').slice(0, 12)}.`;
}
