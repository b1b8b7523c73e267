// Market keys `family[@period][:line]`: parsing, the canonical written form, and quarter-line helpers.

export interface MarketKey {
  family: string;
  period: string | null;
  line: number | null;
}

/** Longer keys are not market keys (the longest real one is a few dozen characters). */
const MAX_KEY_LENGTH = 128;
/** Lines at or beyond this size would need exponent notation sooner or later; no market has them. */
const MAX_ABS_LINE = 1e6;
const MAX_LINE_DECIMALS = 4;

// Case-insensitive on input: family and period are lower-cased, so `1X2@1H` is `1x2@1h`. A family may
// start with a digit (`1x2`). The line is plain decimal notation: no exponent, no bare `.5`, no `2.`.
const KEY = /^([a-z0-9][a-z0-9_]*)(?:@([a-z0-9]+))?(?::([+-]?)(\d+)(?:\.(\d+))?)?$/i;
const FAMILY = /^[a-z0-9][a-z0-9_]*$/;
const PERIOD = /^[a-z0-9]+$/;

/** A line that can be written shortest without exponent: finite, |line| < 1e6, at most 4 decimals. */
export function isValidLine(line: number): boolean {
  if (!Number.isFinite(line) || Math.abs(line) >= MAX_ABS_LINE) return false;
  // JS writes the shortest text that reads back as the same number, so its digits are the line's.
  const text = String(line);
  return !text.includes('e') && decimalsOf(text) <= MAX_LINE_DECIMALS;
}

function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** Parses a market key; `null` when it does not follow the grammar. Never throws. */
export function parseMarketKey(key: string): MarketKey | null {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return null;
  const m = KEY.exec(key);
  if (m === null || m[1] === undefined) return null;
  const family = m[1].toLowerCase();
  const period = m[2] === undefined ? null : m[2].toLowerCase();
  let line: number | null = null;
  if (m[4] !== undefined) {
    const fraction = (m[5] ?? '').replace(/0+$/, '');
    if (fraction.length > MAX_LINE_DECIMALS) return null;
    const value = Number(`${m[4]}${fraction === '' ? '' : `.${fraction}`}`);
    if (!(value < MAX_ABS_LINE)) return null;
    // `-0` and `+0.0` are the line 0.
    line = value === 0 ? 0 : m[3] === '-' ? -value : value;
  }
  return { family, period, line };
}

/**
 * The canonical text of a key: lower case, no `+`, numbers shortest (`totals:2`, `asian_handicap:-0.25`).
 * Throws a RangeError for a key no parser would produce (an upper-case or empty family, a bad line):
 * that is a bug in the caller, not input to repair.
 */
export function formatMarketKey(k: MarketKey): string {
  if (!FAMILY.test(k.family)) throw new RangeError(`invalid market family ${JSON.stringify(k.family)}`);
  let text = k.family;
  if (k.period !== null) {
    if (!PERIOD.test(k.period)) throw new RangeError(`invalid market period ${JSON.stringify(k.period)}`);
    text += `@${k.period}`;
  }
  if (k.line !== null) {
    if (!isValidLine(k.line)) throw new RangeError(`invalid market line ${String(k.line)}`);
    text += `:${String(k.line === 0 ? 0 : k.line)}`;
  }
  return text;
}

/** The canonical form of a key as received (`TOTALS:2.50` → `totals:2.5`), or null when malformed. */
export function canonicalMarketKey(key: string): string | null {
  const parsed = parseMarketKey(key);
  return parsed === null ? null : formatMarketKey(parsed);
}

/** An Asian quarter line (…, -0.25, 0.75, 2.25, …): the stake is split over the two neighbouring half lines. */
export function isQuarterLine(line: number): boolean {
  const quarters = line * 4;
  return Number.isInteger(quarters) && Math.abs(quarters) % 2 === 1;
}

/**
 * The two lines a quarter line's stake is split over, the one nearer zero first:
 * -0.25 → [0, -0.5], 2.75 → [2.5, 3], -1.75 → [-1.5, -2]. Throws a RangeError for other lines.
 */
export function splitQuarterLine(line: number): [number, number] {
  if (!isQuarterLine(line)) throw new RangeError(`${String(line)} is not a quarter line`);
  const near = line > 0 ? line - 0.25 : line + 0.25;
  const far = line > 0 ? line + 0.25 : line - 0.25;
  return [near === 0 ? 0 : near, far];
}
