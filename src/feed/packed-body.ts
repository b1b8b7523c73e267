// Parses an NDJSON feed body with every odds message's changes packed into one arena of typed arrays.
import { isBlankLine, parseNdjsonLine, splitNdjson } from './ndjson.js';
import { scanOddsLine, type Arena } from './odds-line-scanner.js';
import { fill, type IngressMessage, type PackedChanges } from './packed-odds.js';

/** One line of a feed body: its message (odds packed), or why it was rejected. */
export type IngressLine =
  { line: number; message: IngressMessage } | { line: number; error: 'bad_request'; message: string };

/**
 * The shortest text a change can have is `{"selection_id":0,"odds":2}`; an arena of one entry per
 * this many characters of the body can hold every change it carries.
 */
const MIN_CHANGE_CHARS = 24;

/**
 * Same lines, numbers, messages and errors as parseNdjson, except that odds messages carry
 * `packed` views into three arrays shared by the whole body (`buffers` lists their ArrayBuffers,
 * should the lines be posted to another thread: they transfer without a copy).
 */
export function parsePackedBody(text: string): { lines: IngressLine[]; buffers: ArrayBuffer[] } {
  const size = Math.ceil(text.length / MIN_CHANGE_CHARS) + 1;
  const arena: Arena = {
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
  const lines: IngressLine[] = [];
  const texts = splitNdjson(text);
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    const line = i + 1;
    const scanned = scanOddsLine(t, arena);
    if (scanned !== null) {
      const packed = view(scanned.from, scanned.count);
      const message: IngressMessage =
        scanned.ts === undefined
          ? { type: 'odds', event_id: scanned.eventId, packed }
          : { type: 'odds', ts: scanned.ts, event_id: scanned.eventId, packed };
      lines.push({ line, message });
      continue;
    }
    if (isBlankLine(t)) continue;
    const parsed = parseNdjsonLine(t, line);
    if (parsed === null) continue;
    if ('error' in parsed || parsed.message.type !== 'odds') {
      lines.push(parsed);
      continue;
    }
    const m = parsed.message;
    const n = m.changes.length;
    if (arena.used + n > size) {
      // Unreachable for valid JSON (see MIN_CHANGE_CHARS); kept so a surprise costs speed, not data.
      lines.push(parsed);
      continue;
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
  return { lines, buffers: [arena.ids.buffer, arena.odds.buffer, arena.locks.buffer] as ArrayBuffer[] };
}
