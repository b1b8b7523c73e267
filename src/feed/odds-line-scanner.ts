// A fast reader for plain odds lines: scans the JSON text straight into typed arrays, or declines and lets the general parser decide.
import { validateFeedMessage } from './messages.js';
import type { PackedChanges } from './packed-odds.js';

/**
 * Why: a live tick is ~1,000 odds lines carrying ~100,000 changes. JSON.parse makes an object per
 * change and the collector then spends as long again on them; scanning the text writes each change
 * into the arena directly. The scanner accepts only what the general path (JSON.parse + schema +
 * semantic checks) accepts, with the same values: anything unusual (an escape, a duplicate or
 * unknown key, a value out of range, a missing field) makes it decline, and the caller parses that
 * line the general way, which also words any error. The header (type, ts, event_id) is checked by
 * the very validator of the general path.
 */

const MAX_CHANGES = 100_000;
const MIN_ODDS = 1.01;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** 10^0 … 10^22: every one exact in a double. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_v, k) => 10 ** k);

/** Members of a change, each with its closing quote; their index is the key's code. */
const CHANGE_KEYS = ['selection_id"', 'odds"', 'is_locked"'] as const;
const SELECTION_ID = 0;
const ODDS = 1;
const IS_LOCKED = 2;

/** The arena a body's changes are written to. */
export interface Arena extends PackedChanges {
  /** Entries written so far. */
  used: number;
}

export interface ScannedOdds {
  eventId: string;
  ts: string | undefined;
  /** Where this line's changes start in the arena, and how many. */
  from: number;
  count: number;
}

class Decline extends Error {}
const DECLINE = new Decline();

/** Reads one line if it is a plain odds message; null to let the general parser take it (nothing written then). */
export function scanOddsLine(text: string, arena: Arena): ScannedOdds | null {
  const s = new Scanner(text, arena);
  try {
    return s.line();
  } catch (e) {
    if (e === DECLINE) {
      arena.used = s.from;
      return null;
    }
    throw e;
  }
}

class Scanner {
  private i = 0;
  readonly from: number;

  constructor(
    private readonly text: string,
    private readonly arena: Arena,
  ) {
    this.from = arena.used;
  }

  line(): ScannedOdds | null {
    let type: string | undefined;
    let ts: string | undefined;
    let eventId: string | undefined;
    let count = -1;
    this.ws();
    this.expect(LBRACE);
    this.ws();
    if (this.peek() === RBRACE) throw DECLINE;
    for (;;) {
      const key = this.string();
      this.ws();
      this.expect(COLON);
      this.ws();
      if (key === 'type' && type === undefined) type = this.string();
      else if (key === 'ts' && ts === undefined) ts = this.string();
      else if (key === 'event_id' && eventId === undefined) eventId = this.string();
      else if (key === 'changes' && count < 0) count = this.changes();
      else throw DECLINE;
      this.ws();
      const c = this.next();
      if (c === RBRACE) break;
      if (c !== COMMA) throw DECLINE;
      this.ws();
    }
    this.ws();
    if (this.i !== this.text.length) throw DECLINE;
    if (type !== 'odds' || eventId === undefined || count < 1) throw DECLINE;
    // The header through the general validator: same id pattern, same date-time rules.
    const header = validateFeedMessage(
      ts === undefined
        ? { type, event_id: eventId, changes: [{ selection_id: 0, odds: 2 }] }
        : { type, ts, event_id: eventId, changes: [{ selection_id: 0, odds: 2 }] },
    );
    if (!header.ok) throw DECLINE;
    return { eventId, ts, from: this.from, count };
  }

  /** The changes array: each entry written to the arena; returns how many. */
  private changes(): number {
    this.expect(LBRACKET);
    this.ws();
    if (this.peek() === RBRACKET) throw DECLINE;
    const a = this.arena;
    let n = 0;
    for (;;) {
      if (n >= MAX_CHANGES || a.used >= a.ids.length) throw DECLINE;
      this.change(a.used);
      a.used++;
      n++;
      this.ws();
      const c = this.next();
      if (c === RBRACKET) return n;
      if (c !== COMMA) throw DECLINE;
      this.ws();
    }
  }

  private change(at: number): void {
    const a = this.arena;
    let id = -1;
    let odds = NaN;
    let lock = -1;
    this.expect(LBRACE);
    this.ws();
    if (this.peek() === RBRACE) throw DECLINE;
    for (;;) {
      const key = this.changeKey();
      this.ws();
      this.expect(COLON);
      this.ws();
      if (key === SELECTION_ID && id < 0) {
        id = this.number();
        if (!Number.isInteger(id) || id < 0 || id > Number.MAX_SAFE_INTEGER) throw DECLINE;
      } else if (key === ODDS && Number.isNaN(odds)) {
        odds = this.number();
        if (!(odds >= MIN_ODDS) || odds === Infinity) throw DECLINE;
      } else if (key === IS_LOCKED && lock < 0) lock = this.boolean();
      else throw DECLINE;
      this.ws();
      const c = this.next();
      if (c === RBRACE) break;
      if (c !== COMMA) throw DECLINE;
      this.ws();
    }
    if (id < 0 || (Number.isNaN(odds) && lock < 0)) throw DECLINE;
    a.ids[at] = id;
    a.odds[at] = odds;
    a.locks[at] = lock;
  }

  /** The key of a change member, matched in place (no string made): one of the three, else decline. */
  private changeKey(): number {
    const t = this.text;
    if (t.charCodeAt(this.i) !== QUOTE) throw DECLINE;
    for (let k = 0; k < CHANGE_KEYS.length; k++) {
      const quoted = CHANGE_KEYS[k]!;
      if (t.startsWith(quoted, this.i + 1)) {
        this.i += 1 + quoted.length;
        return k;
      }
    }
    throw DECLINE;
  }

  /** A string without escapes (one with a backslash declines). */
  private string(): string {
    this.expect(QUOTE);
    const start = this.i;
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (Number.isNaN(c) || c === BACKSLASH || c < 0x20) throw DECLINE;
      this.i++;
      if (c === QUOTE) return t.slice(start, this.i - 1);
    }
  }

  /** A JSON number, exactly as JSON.parse would read it (its grammar checked first). */
  private number(): number {
    const t = this.text;
    const start = this.i;
    const negative = t.charCodeAt(this.i) === MINUS;
    if (negative) this.i++;
    // Digits accumulate into an integer mantissa while it stays exact (below 2^53).
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    const first = t.charCodeAt(this.i);
    if (first === ZERO) this.i++;
    else if (first > ZERO && first <= NINE) {
      for (let c = first; c >= ZERO && c <= NINE; c = t.charCodeAt(++this.i)) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
      }
    } else throw DECLINE;
    if (t.charCodeAt(this.i) === DOT) {
      this.i++;
      const at = this.i;
      for (let c = t.charCodeAt(this.i); c >= ZERO && c <= NINE; c = t.charCodeAt(++this.i)) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
      }
      scale = this.i - at;
      if (scale === 0) throw DECLINE;
    }
    const e = t.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = t.charCodeAt(this.i);
      if (sign === PLUS || sign === MINUS) this.i++;
      if (!this.digits()) throw DECLINE;
      return Number(t.slice(start, this.i));
    }
    // Exact integer over an exact power of ten: IEEE division rounds once, to the same double
    // Number() gives for the decimal text. Longer numbers take Number() itself.
    if (digits > 15 || scale > 22) return Number(t.slice(start, this.i));
    const value = scale === 0 ? mantissa : mantissa / POWERS_OF_TEN[scale]!;
    return negative ? -value : value;
  }

  private digits(): boolean {
    const start = this.i;
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c >= ZERO && c <= NINE) this.i++;
      else return this.i > start;
    }
  }

  private boolean(): number {
    const t = this.text;
    if (t.startsWith('true', this.i)) {
      this.i += 4;
      return 1;
    }
    if (t.startsWith('false', this.i)) {
      this.i += 5;
      return 0;
    }
    throw DECLINE;
  }

  private ws(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  private peek(): number {
    return this.text.charCodeAt(this.i);
  }

  private next(): number {
    return this.text.charCodeAt(this.i++);
  }

  private expect(c: number): void {
    if (this.text.charCodeAt(this.i) !== c) throw DECLINE;
    this.i++;
  }
}
