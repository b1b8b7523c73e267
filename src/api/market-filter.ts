// The `markets` parameter of the reads that carry markets (detail, odds, odds at an instant, batch): parsed, checked, normalised.
import { Type } from 'typebox';
import { badRequest } from '../domain/errors.js';
import { FAMILIES, isPlayerPropFamily, PLAYER_PROP } from '../domain/families/index.js';
import type { LiveEvent } from '../live/live-event.js';
import { bookHasFamily, MarketFilter } from '../live/market-filter.js';

/** The stream's family syntax (routes/stream.ts): a family is lower case letters, digits and `_`, at most 64. */
const FAMILY = /^[a-z0-9_]{1,64}$/;
/** Families one value may name at most, as on the stream. */
const MAX_FAMILIES = 100;

const CATALOG: ReadonlySet<string> = new Set(FAMILIES.map((d) => d.key));
/** What the error of an unknown family lists: the catalog's families, then the player props' shape. */
const ACCEPTED = [...FAMILIES.map((d) => d.key), PLAYER_PROP.key].join(', ');

/** The query parameter, as the stream declares its `markets`. */
export const MarketsParam = Type.Optional(
  Type.String({
    description:
      'comma-separated market families (1x2, totals…): only the markets of those families (docs/api.md, "The markets filter"); an unknown family is a 400',
  }),
);

/**
 * Parses `markets` with the stream's syntax (comma-separated, case-insensitive, spaces and empty
 * items ignored, at most 100): null when absent. A malformed value is a 400 naming the parameter.
 * Whether each family is known is checked later, against the events read (`checkKnown`).
 */
export function parseMarkets(value: string | undefined): MarketFilter | null {
  if (value === undefined) return null;
  const items = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  if (items.length === 0) throw badRequest(`query parameter 'markets' is empty (use ${ACCEPTED})`);
  if (items.length > MAX_FAMILIES) {
    throw badRequest(`query parameter 'markets' lists ${items.length} families; at most ${MAX_FAMILIES}`);
  }
  for (const f of items) {
    if (!FAMILY.test(f)) {
      throw badRequest(
        `query parameter 'markets' has an invalid market family '${shown(f)}' (letters, digits and _, at most 64: ${ACCEPTED})`,
      );
    }
  }
  return new MarketFilter(items);
}

/** A refused item as an error message quotes it: a long one cut short (it may be kilobytes of anything). */
function shown(item: string): string {
  return item.length <= 80 ? item : `${item.slice(0, 80)}…`;
}

/**
 * A family is known when the market catalog names it (docs/markets.md), when it is a player prop
 * (`player_<stat>_<player_id>`), or when a market of one of the events read has it (a producer may
 * send families the catalog does not know). Anything else is a typo, answered with a 400 rather
 * than a document that silently lost every market.
 */
export function checkKnown(filter: MarketFilter | null, events: Iterable<LiveEvent>): void {
  if (filter === null) return;
  let held: LiveEvent[] | null = null;
  for (const f of filter.families) {
    if (CATALOG.has(f) || isPlayerPropFamily(f)) continue;
    held ??= [...events];
    if (held.some((le) => bookHasFamily(le.book, f))) continue;
    throw badRequest(`query parameter 'markets' has an unknown market family '${f}' (use ${ACCEPTED})`);
  }
}
