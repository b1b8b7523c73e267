// How deeply a JSON text nests, found by a cheap scan that stops as soon as it passes a limit.

/** No message or request of this service nests deeper than a few levels; 32 leaves room and stops junk. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `text` opens more than `limit` objects or arrays inside one another (brackets inside
 * strings do not count). Why: JSON.parse of deeply nested junk is slow (seconds for megabytes of
 * `[`) and may overflow the stack; this scan reads each character once and stops at the first
 * bracket past the limit, so junk is refused in microseconds. Malformed text it does not judge:
 * JSON.parse still does.
 */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}
