// The `markets` parameter of the reads that carry markets (detail, odds, odds at an instant, batch): parsed, checked, normalised.
import { badRequest } from '../domain/errors.js';
import { FAMILIES, PLAYER_PROP } from '../domain/families/index.js';
import { MarketFilter } from '../live/market-filter.js';
import { FamilyListParam } from './schemas/params.js';

/** The stream's family syntax (routes/stream.ts): a family is lower case letters, digits and `_`, at most 64. */
const FAMILY = /^[a-z0-9_]{1,64}$/;
/** Families one value may name at most, as on the stream. */
const MAX_FAMILIES = 100;

/** What the error of a malformed value lists: the catalog's families, then the player props' shape. */
const ACCEPTED = [...FAMILIES.map((d) => d.key), PLAYER_PROP.key].join(', ');

/** The query parameter, declared as the stream's `markets` (one schema: params.ts). */
export const MarketsParam = FamilyListParam(
  'only the markets of those families (docs/api.md, "The markets filter"); a family no market has matches none',
);

/**
 * Parses `markets` with the stream's syntax (comma-separated, case-insensitive, spaces and empty
 * items ignored, at most 100): null when absent. A malformed value is a 400 naming the parameter.
 * A well-formed family nothing has is accepted and matches no market, as on the stream.
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
