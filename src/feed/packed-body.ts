// Parses an NDJSON feed body with every odds message's changes packed into one arena of typed arrays.
import { badRequest } from '../domain/errors.js';
import { isBlankLine, parseNdjsonLine, splitNdjson } from './ndjson.js';
import { scanOddsBytes } from './odds-bytes-scanner.js';
import { scanOddsLine, type Arena, type ScannedOdds } from './odds-line-scanner.js';
import { fill, type IngressMessage, type PackedChanges } from './packed-odds.js';

/** A parsed body: its lines, and the arena their odds are packed in (with its buffers, for a transfer). */
export interface ParsedBody {
  lines: IngressLine[];
  arena: Arena;
  buffers: ArrayBuffer[];
}

/** One line of a feed body: its message (odds packed), or why it was rejected. */
export type IngressLine =
  { line: number; message: IngressMessage } | { line: number; error: 'bad_request'; message: string };

/**
 * A body with more bad lines than this is refused whole, nothing applied. Why: a line that is not
 * JSON costs JSON.parse ~13 µs to refuse (V8 builds an error each time), so 40 MB of short junk
 * lines held the event loop for minutes and answered a report of hundreds of megabytes. No
 * producer that works sends thousands of bad lines in one body.
 */
export const MAX_BAD_LINES = 10_000;

/** Counts a body's bad lines as they are parsed; throws past MAX_BAD_LINES. */
function countBad(lines: IngressLine[], before: number, bad: { n: number }): void {
  if (lines.length === before) return;
  const last = lines[lines.length - 1]!;
  if (!('error' in last)) return;
  if (++bad.n > MAX_BAD_LINES) {
    throw badRequest(
      `more than ${MAX_BAD_LINES} lines of this body are not valid feed messages (the first at line ${
        lines.find((l) => 'error' in l)?.line ?? last.line
      }); nothing was applied`,
    );
  }
}

/**
 * The shortest text a change can have is `{"selection_id":0,"odds":2}`; an arena of one entry per
 * this many characters of the body can hold every change it carries.
 */
const MIN_CHANGE_CHARS = 24;

/**
 * Keeps a body's arena for the next body: a live feed's ticks (2.4 MB of arena each at 100,000
 * changes) then allocate none. New memory per tick that lived through the apply was promoted and
 * counted towards the ~64 MB of outside-heap memory after which V8 starts a full collection.
 * The owner gives an arena back once nothing refers to the lines parsed into it.
 */
export class ArenaKeeper {
  private spare: Arena | null = null;

  take(size: number): Arena {
    const a = this.spare;
    if (a !== null && a.ids.length >= size && a.ids.length <= 2 * size + 1024) {
      this.spare = null;
      a.used = 0;
      return a;
    }
    return { ids: new Float64Array(size), odds: new Float64Array(size), locks: new Int8Array(size), used: 0 };
  }

  /**
   * Keeps the arena given last: the next body is most like the last one. (Keeping the largest held
   * a bulk load's arena for good, too big for any tick to take.)
   */
  give(arena: Arena): void {
    this.spare = arena;
  }
}

/** The arena for a body of `length` characters or bytes (a kept one when given a keeper), and views into it. */
function bodyArena(
  length: number,
  keeper?: ArenaKeeper,
): { arena: Arena; view: (from: number, n: number) => PackedChanges } {
  const size = Math.ceil(length / MIN_CHANGE_CHARS) + 1;
  const arena: Arena = keeper?.take(size) ?? {
    ids: new Float64Array(size),
    odds: new Float64Array(size),
    locks: new Int8Array(size),
    used: 0,
  };
  const view = (from: number, n: number): PackedChanges => ({
    ids: arena.ids.subarray(from, from + n),
    odds: arena.odds.subarray(from, from + n),
    locks: arena.locks.subarray(from, from + n),
  });
  return { arena, view };
}

function packedLine(line: number, scanned: ScannedOdds, view: (from: number, n: number) => PackedChanges): IngressLine {
  const packed = view(scanned.from, scanned.count);
  return {
    line,
    message:
      scanned.ts === undefined
        ? { type: 'odds', event_id: scanned.eventId, packed }
        : { type: 'odds', ts: scanned.ts, event_id: scanned.eventId, packed },
  };
}

/** One line of text: the text scanner, else the general parser (odds then copied into the arena). */
function textLine(
  t: string,
  line: number,
  arena: Arena,
  view: (from: number, n: number) => PackedChanges,
  lines: IngressLine[],
): void {
  const scanned = scanOddsLine(t, arena);
  if (scanned !== null) {
    lines.push(packedLine(line, scanned, view));
    return;
  }
  if (isBlankLine(t)) return;
  const parsed = parseNdjsonLine(t, line);
  if (parsed === null) return;
  if ('error' in parsed || parsed.message.type !== 'odds') {
    lines.push(parsed);
    return;
  }
  const m = parsed.message;
  const n = m.changes.length;
  if (arena.used + n > arena.ids.length) {
    // Unreachable for valid JSON (see MIN_CHANGE_CHARS); kept so a surprise costs speed, not data.
    lines.push(parsed);
    return;
  }
  fill(arena, arena.used, m.changes);
  const packed = view(arena.used, n);
  arena.used += n;
  lines.push({
    line,
    message:
      m.ts === undefined
        ? { type: 'odds', event_id: m.event_id, packed }
        : { type: 'odds', ts: m.ts, event_id: m.event_id, packed },
  });
}

/**
 * Same lines, numbers, messages and errors as parseNdjson, except that odds messages carry
 * `packed` views into three arrays shared by the whole body (`buffers` lists their ArrayBuffers,
 * should the lines be posted to another thread: they transfer without a copy).
 */
export function parsePackedBody(text: string, keeper?: ArenaKeeper): ParsedBody {
  const { arena, view } = bodyArena(text.length, keeper);
  const lines: IngressLine[] = [];
  const texts = splitNdjson(text);
  const bad = { n: 0 };
  for (let i = 0; i < texts.length; i++) {
    const before = lines.length;
    textLine(texts[i]!, i + 1, arena, view, lines);
    countBad(lines, before, bad);
  }
  return { lines, arena, buffers: [arena.ids.buffer, arena.odds.buffer, arena.locks.buffer] as ArrayBuffer[] };
}

const decoder = new TextDecoder();
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * parsePackedBody of the body's UTF-8 text, from the bytes: lines in the common odds spelling are
 * read in place (odds-bytes-scanner.ts), only the others are decoded. A body with a carriage
 * return anywhere is decoded whole (a lone \r also ends a line), and so is one starting with a
 * byte order mark.
 */
export function parsePackedBytes(body: Uint8Array, keeper?: ArenaKeeper): ParsedBody {
  if (body.indexOf(CARRIAGE_RETURN) >= 0 || (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf)) {
    return parsePackedBody(decoder.decode(body), keeper);
  }
  // Bytes are at least as many as characters, so the arena is large enough for the text path too.
  const { arena, view } = bodyArena(body.length, keeper);
  const lines: IngressLine[] = [];
  let start = 0;
  const bad = { n: 0 };
  for (let line = 1; ; line++) {
    let end = body.indexOf(NEWLINE, start);
    const last = end < 0;
    if (last) end = body.length;
    const scanned = scanOddsBytes(body, start, end, arena);
    if (scanned !== null) lines.push(packedLine(line, scanned, view));
    else {
      const before = lines.length;
      textLine(decoder.decode(body.subarray(start, end)), line, arena, view, lines);
      countBad(lines, before, bad);
    }
    if (last) break;
    start = end + 1;
  }
  return { lines, arena, buffers: [arena.ids.buffer, arena.odds.buffer, arena.locks.buffer] as ArrayBuffer[] };
}
