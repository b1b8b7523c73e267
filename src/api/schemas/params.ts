// Query parameter schemas that are at once the route's validator and what /openapi.json declares: one object, no drift.
import { Type } from 'typebox';
import { SPORT_KEYS, SPORTS } from '../../domain/sports.js';
import { INSTANT_PATTERN } from '../instants.js';
import { StringEnum } from './common.js';

/**
 * A regular expression (source, no anchors) of the whole numbers 1 to `max` written without
 * leading zeros: the numbers with fewer digits than `max`, then those with as many, digit by digit.
 */
export function oneToPattern(max: number): string {
  const digits = String(max);
  const k = digits.length;
  const alternatives: string[] = [];
  if (k > 1) alternatives.push(k === 2 ? '[1-9]' : `[1-9]\\d{0,${k - 2}}`);
  for (let i = 0; i < k; i++) {
    const d = Number(digits[i]);
    const lowest = i === 0 ? 1 : 0;
    const rest = k - i - 1;
    if (d > lowest) {
      const range = d - 1 === lowest ? `${lowest}` : `[${lowest}-${d - 1}]`;
      alternatives.push(`${digits.slice(0, i)}${range}${rest === 0 ? '' : rest === 1 ? '\\d' : `\\d{${rest}}`}`);
    }
  }
  alternatives.push(digits);
  return `(?:${alternatives.join('|')})`;
}

/** A comma-separated list of 1 to `max` items, each matching `item` (a regular expression source). */
export function csvPattern(item: string, max: number): string {
  return `^(?:${item})(?:,(?:${item})){0,${max - 1}}$`;
}

interface ListRule {
  item: RegExp;
  /** What one item is, as a refusal names it: "unknown event name", "invalid market family". */
  what: string;
  /** The plural of the items, for a refusal of their count. */
  items: string;
  max: number;
}

/** The rule behind each list pattern: a refusal names the item at fault rather than the pattern. */
const LIST_RULES = new Map<string, ListRule>();

function listPattern(item: string, max: number, what: string, items: string): string {
  const pattern = csvPattern(item, max);
  LIST_RULES.set(pattern, { item: new RegExp(`^(?:${item})$`), what, items, max });
  return pattern;
}

/** Why a value does not match a list pattern, in words (the first item at fault, or the count), or null. */
export function listProblem(pattern: string, value: string): string | null {
  const rule = LIST_RULES.get(pattern);
  if (rule === undefined) return null;
  const items = value.split(',');
  const bad = items.find((i) => !rule.item.test(i));
  if (bad !== undefined) {
    if (bad.trim() === '') return 'has an empty item';
    return `has an ${rule.what} '${bad.length > 80 ? `${bad.slice(0, 80)}…` : bad}'`;
  }
  if (items.length > rule.max) return `lists ${items.length} ${rule.items}; at most ${rule.max}`;
  return null;
}

/** A list item that is an id: not empty, no comma; spaces around it are trimmed by the service. */
const ID_ITEM = '\\s*[^,\\s][^,]*';

/** A comma-separated id list (`a,b,c`): at most `max` items, none empty, 10,000 characters at most. */
export function IdListParam(max: number, description: string) {
  return Type.Optional(
    Type.String({
      maxLength: 10_000,
      pattern: listPattern(ID_ITEM, max, 'invalid id', 'ids'),
      description: `${description}: comma-separated, 1 to ${max} ids, none empty`,
      examples: ['id1,id2'],
    }),
  );
}

/** A sport key of the catalog, or `all` (every sport, as when absent). */
export const SportParam = Type.Optional(
  StringEnum(['all', ...SPORT_KEYS], { description: 'a sport key of GET /v1/sports, or all (the default)' }),
);

const sportIds = SPORTS.map((s) => s.sportId);

/** A sport id of the catalog (GET /v1/outrights/sports names them). */
export const SportIdParam = Type.Optional(
  Type.Integer({
    minimum: Math.min(...sportIds),
    maximum: Math.max(...sportIds),
    description: `a sport_id from GET /v1/outrights/sports (the catalog's ${Math.min(...sportIds)} to ${Math.max(...sportIds)})`,
  }),
);

/** A calendar day `YYYY-MM-DD` (UTC). */
export function DateParam(description: string) {
  return Type.Optional(Type.String({ format: 'date', description: `YYYY-MM-DD (UTC), ${description}` }));
}

/**
 * An instant: RFC 3339 `date-time` (a zone is required, seconds too) and, beyond the format, the
 * pattern the service reads: a `T` between date and time, a `Z` or `±hh:mm` zone, no leap second.
 * Any number of fractional digits, truncated to the millisecond.
 */
export function InstantParam(description: string) {
  return Type.Optional(
    Type.String({
      format: 'date-time',
      pattern: INSTANT_PATTERN,
      description: `RFC 3339 date-time with seconds and a zone (Z or ±hh:mm, T between date and time): ${description}`,
      examples: ['2026-11-22T10:00:00Z'],
    }),
  );
}

const DAY_MINUTES = 24 * 60;
/** The longest window of `starts_within`: 366 days, in each unit. */
export const WINDOW_MAX = { m: 366 * DAY_MINUTES, h: 366 * 24, d: 366 } as const;

/** `{n}{m|h|d}`: a whole number (no leading zero) of minutes, hours or days, from 1 up to 366 days. */
export const StartsWithinParam = Type.Optional(
  Type.String({
    pattern: `^(?:${oneToPattern(WINDOW_MAX.m)}m|${oneToPattern(WINDOW_MAX.h)}h|${oneToPattern(WINDOW_MAX.d)}d)$`,
    description: `{n}{m|h|d}: prematch events starting within n minutes, hours or days (1 up to 366 days: ${WINDOW_MAX.m}m, ${WINDOW_MAX.h}h, ${WINDOW_MAX.d}d)`,
    examples: ['30m', '6h', '2d'],
  }),
);

/** A comma-separated list of names of a closed set (each may repeat), at most `max` items. */
export function NameListParam(names: readonly string[], max: number, noun: string, description: string) {
  return Type.Optional(
    Type.String({
      pattern: listPattern(names.join('|'), max, `unknown ${noun}`, `${noun}s`),
      description: `${description}: comma-separated, from ${names.join(', ')} (at most ${max} items)`,
      examples: [names.slice(0, 2).join(',')],
    }),
  );
}

/** A market family as the feed writes it (`1x2`, `asian_handicap`); the service reads it in lower case. */
export const FAMILY_ITEM = '[A-Za-z0-9_]{1,64}';
export const MAX_FAMILIES = 100;

/** Market families (`1x2,totals`): an open set, since the feed may add families the catalog does not know. */
export function FamilyListParam(description: string) {
  return Type.Optional(
    Type.String({
      pattern: listPattern(FAMILY_ITEM, MAX_FAMILIES, 'invalid market family', 'families'),
      description: `${description}: comma-separated market families (1 to ${MAX_FAMILIES}, each 1 to 64 of a-z, 0-9, _; read in lower case)`,
      examples: ['1x2,totals'],
    }),
  );
}

/** Items of a list parameter the schema has checked: split on commas, trimmed. */
export function listItems(value: string): string[] {
  return value.split(',').map((s) => s.trim());
}
