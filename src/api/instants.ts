// Strict RFC 3339 date-times for query parameters: a real calendar date, a time with seconds and a zone (Z or ±hh:mm), or a 400 naming the parameter.
import { badRequest } from '../domain/errors.js';

/**
 * The instants the service reads, as a JSON Schema pattern (declared with `format: date-time` on
 * every instant parameter, schemas/params.ts): RFC 3339 with seconds and a zone, `T` between date
 * and time, `±hh:mm` offsets; no leap second (the day's calendar is checked by the format).
 */
export const INSTANT_PATTERN =
  '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

const INSTANT = new RegExp(INSTANT_PATTERN);

/** Days in a month; setUTCFullYear, since Date.UTC reads years 0 to 99 as 1900 to 1999. */
export function daysIn(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/**
 * Epoch ms of an ISO 8601 date-time, or null. Unlike Date.parse, a date that does not exist
 * (`2026-02-30`, which Date.parse rolls over to March 2) or a time without a zone (which
 * Date.parse reads in the server's local time) is refused rather than guessed.
 */
export function instantOf(value: string): number | null {
  const m = INSTANT.test(value) ? ISO_INSTANT.exec(value) : null;
  if (m === null) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offset = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  // Any number of fractional digits (RFC 3339 sets no limit), truncated to the millisecond from the
  // digits themselves (a float of many digits can round up past the next millisecond).
  const ms = m[7] === undefined ? 0 : Number(`${m[7].slice(1)}00`.slice(0, 3));
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  const t = utc.getTime() - offset;
  return Number.isFinite(t) ? t : null;
}

/** An ISO 8601 date-time query parameter, or a 400 naming it. */
export function parseInstant(name: string, value: string): number {
  const t = instantOf(value);
  if (t === null) {
    throw badRequest(
      `query parameter '${name}' must be an RFC 3339 date-time with seconds and a zone, such as 2026-11-22T10:00:00Z`,
    );
  }
  return t;
}
