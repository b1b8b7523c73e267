// NDJSON feed transport: parse a body or stream a replay file into validated messages with per-line errors.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../domain/json-depth.js';
import { validateFeedMessage, type FeedMessage } from './messages.js';

/** One non-blank line of a feed body: its message, or why it was rejected. Lines count from 1. */
export type NdjsonLine =
  { line: number; message: FeedMessage } | { line: number; error: 'bad_request'; message: string };

const BYTE_ORDER_MARK = '\uFEFF';
const BLANK = /^\s*$/;
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * Decodes and validates one line. Returns null for a blank line (skipped, but the caller still
 * counts it).
 */
export function parseNdjsonLine(text: string, line: number): NdjsonLine | null {
  if (BLANK.test(text)) return null;
  // Deeply nested junk costs JSON.parse seconds (and may overflow the stack): refused first.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return { line, error: 'bad_request', message: `line nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { line, error: 'bad_request', message: `line is not valid JSON: ${reason}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { line, error: 'bad_request', message: `line is not a JSON object (got ${got})` };
  }
  const result = validateFeedMessage(value);
  if (!result.ok) return { line, error: 'bad_request', message: result.message };
  return { line, message: result.message };
}

/**
 * Parses a whole NDJSON body. Blank lines yield nothing but keep the line numbering of the text.
 * Line breaks are those node:readline knows (\n, \r\n, a lone \r), so a body and the same text
 * replayed from a file number their lines alike.
 */
export function parseNdjson(text: string): NdjsonLine[] {
  const out: NdjsonLine[] = [];
  const lines = splitNdjson(text);
  for (let i = 0; i < lines.length; i++) {
    const parsed = parseNdjsonLine(lines[i]!, i + 1);
    if (parsed) out.push(parsed);
  }
  return out;
}

/** The lines of a body (a leading byte order mark dropped); line n is at index n - 1. */
export function splitNdjson(text: string): string[] {
  return (text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text).split(LINE_BREAK);
}

/** Whether a line holds nothing but whitespace (skipped, though it keeps its number). */
export function isBlankLine(text: string): boolean {
  return BLANK.test(text);
}

/**
 * Streams a replay file line by line, so a file of hundreds of megabytes never sits in memory
 * whole. Same results, line for line, as parseNdjson on the file's text.
 */
export async function* readNdjsonFile(path: string): AsyncGenerator<NdjsonLine> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  // crlfDelay: Infinity makes a \r\n split across two chunks still one line break.
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of lines) {
      line++;
      const text = line === 1 && raw.startsWith(BYTE_ORDER_MARK) ? raw.slice(1) : raw;
      const parsed = parseNdjsonLine(text, line);
      if (parsed) yield parsed;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

const NEWLINE = 0x0a;

/**
 * Number of lines in a file (blank ones included; a last line without a newline counts), read in
 * raw chunks without decoding: the total for a replay progress bar.
 */
export async function countLines(path: string): Promise<number> {
  let count = 0;
  let last = -1;
  for await (const chunk of createReadStream(path)) {
    const buf = chunk as Buffer;
    let i = buf.indexOf(NEWLINE);
    while (i !== -1) {
      count++;
      i = buf.indexOf(NEWLINE, i + 1);
    }
    if (buf.length > 0) last = buf[buf.length - 1]!;
  }
  return last !== -1 && last !== NEWLINE ? count + 1 : count;
}

/** One message a line, each line ending with a newline (an empty list gives an empty string). */
export function toNdjson(messages: readonly FeedMessage[]): string {
  let out = '';
  for (const m of messages) out += `${JSON.stringify(m)}\n`;
  return out;
}
