// Entity tags of cacheable reads and the If-None-Match test that answers 304 (RFC 9110 8.8.3, 13.1.2).
import { createHash } from 'node:crypto';
import type { Coding } from '../live/compression.js';

const SUFFIX: Readonly<Record<Coding, string>> = { br: '-br', gzip: '-gz' };

/**
 * The strong ETag of a representation: the payload's tag, and the content coding when there is
 * one. A strong validator must change with the coding (RFC 9110 8.8.3: the br and identity bytes
 * differ), and caches keep one stored response per coding under `Vary: Accept-Encoding`, each
 * revalidated with its own tag; a request is matched against the tag of the coding it would get.
 */
export function entityTag(tag: string, coding: Coding | null): string {
  return coding === null ? `"${tag}"` : `"${tag}${SUFFIX[coding]}"`;
}

/** A tag from the bytes themselves, for payloads no version describes (20 base64url characters of SHA-1). */
export function hashTag(body: string | Buffer): string {
  return `h${createHash('sha1').update(body).digest('base64url').slice(0, 20)}`;
}

/** Scanner states: before a tag, inside its quotes, after it. */
const START = 0;
const TAG = 1;
const AFTER = 2;

/**
 * Whether an If-None-Match value names `etag` (a strong tag, quoted): `*`, or a list of entity
 * tags compared weakly (`W/"x"` matches `"x"`). A malformed value matches nothing, so the full
 * answer is sent: a 200 is always safe, a wrong 304 never is.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (value === '*') return true;
  let state = START;
  let start = 0;
  let hit = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (state === TAG) {
      if (c === 0x22) {
        // Closing quote: compare the opaque tag, quotes included.
        if (value.slice(start, i + 1) === etag) hit = true;
        state = AFTER;
      }
      continue;
    }
    if (c === 0x20 || c === 0x09) continue;
    if (state === AFTER) {
      if (c !== 0x2c) return false;
      state = START;
      continue;
    }
    // Start: an optional W/, then a quoted tag; empty list elements (",,") are allowed.
    if (c === 0x2c) continue;
    if (c === 0x57 && value.charCodeAt(i + 1) === 0x2f) i += 2;
    if (value.charCodeAt(i) !== 0x22) return false;
    start = i;
    state = TAG;
  }
  return state === AFTER && hit;
}
