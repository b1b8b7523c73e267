// Renders a change-log entry's stream `data` (one JSON object) in an odds format, optionally for some market families only.
import { formatOdds } from '../domain/odds.js';
import { offeredSelections } from '../domain/outrights.js';
import type { OddsFormat, Market } from '../domain/types.js';
import { resolvedInFormat, type ResolvedMarket } from '../domain/resolved-market.js';
import type { JsonEntry, LogEntry, MarketsEntry, OddsEntry, OutrightEntry } from './log-entry.js';
import { iso } from './payloads.js';
import { familyCount, familyGeneration, familyIdOfKey, familyOf, knownFamilyId } from './market-families.js';

export { familyOf } from './market-families.js';

export interface RenderOptions {
  format: OddsFormat;
  /** Market families to keep (null: every market). */
  families: ReadonlySet<string> | null;
  /** The key of a market of the entry's event (odds entries carry ids only), if the event is still known. */
  keyOf?: (eventId: string, marketId: number) => string | undefined;
  /** The family number of a market (market-families.ts), if quicker than its key (an event's book remembers them). */
  familyIdOf?: FamilyIdOf;
  /** Extra members for the data object (e.g. `"snapshot":true`, `"conflated":true`), already JSON. */
  extra?: string;
}

function withExtra(json: string, extra: string | undefined): string {
  return extra === undefined || extra === '' ? json : `${json.slice(0, -1)},${extra}}`;
}

/**
 * The entry's data, or null when a filter leaves nothing of it (an odds entry none of whose markets
 * are in the families asked for).
 */
export function renderEntryData(entry: LogEntry, opts: RenderOptions): string | null {
  switch (entry.kind) {
    case 'odds':
      return renderOdds(entry, opts);
    case 'markets':
      return renderMarkets(entry, opts);
    case 'outright':
      return renderOutright(entry, opts);
    case 'settlement':
      return withExtra(settlementJson(entry, opts.format), opts.extra);
    default:
      return withExtra(entry.json, opts.extra);
  }
}

/** A settlement entry's data in another odds format, built once per format (every stream in it shares it). */
const settlementInFormat = new WeakMap<JsonEntry, Map<OddsFormat, string>>();

function settlementJson(entry: JsonEntry, format: OddsFormat): string {
  if (format === 'decimal') return entry.json;
  let forms = settlementInFormat.get(entry);
  if (forms === undefined) settlementInFormat.set(entry, (forms = new Map()));
  let json = forms.get(format);
  if (json === undefined) {
    const data = JSON.parse(entry.json) as { resolved_markets?: ResolvedMarket[] };
    if (Array.isArray(data.resolved_markets)) data.resolved_markets = resolvedInFormat(data.resolved_markets, format);
    json = JSON.stringify(data);
    forms.set(format, json);
  }
  return json;
}

/**
 * Decimal odds as JSON in each format, remembered: prices sit on a ladder of a few thousand values,
 * and a stream flush writes the same price in the same format thousands of times.
 */
const oddsMemo: Record<OddsFormat, Map<number, string>> = {
  decimal: new Map(),
  american: new Map(),
  fractional: new Map(),
  fractional_exact: new Map(),
};
const ODDS_MEMO_MAX = 1 << 16;

/** The JSON of decimal odds in a format. */
export function oddsJson(decimal: number, format: OddsFormat): string {
  const memo = oddsMemo[format];
  let json = memo.get(decimal);
  if (json === undefined) {
    if (memo.size >= ODDS_MEMO_MAX) memo.clear(); // a feed off any ladder: stay bounded
    json = JSON.stringify(formatOdds(decimal, format));
    memo.set(decimal, json);
  }
  return json;
}

/**
 * Per odds entry, worked out once and shared by every stream of every format: each change's market
 * family number (0 when the event left the read model: such a market is kept, not lost), and for
 * each set of families streams ask for, which changes it keeps.
 */
interface OddsFilters {
  gen: number;
  families: Uint32Array;
  kept: Map<string, Uint32Array>;
}
const oddsFilters = new WeakMap<OddsEntry, OddsFilters>();
/** A families filter as a mask over family numbers (worked out again when families are added or renumbered). */
const familyMasks = new WeakMap<ReadonlySet<string>, { gen: number; mask: Uint8Array }>();
/** A families filter's key (its members sorted), per filter object: equal filters of different streams share results. */
const familiesKeys = new WeakMap<ReadonlySet<string>, string>();

function maskOf(wanted: ReadonlySet<string>): Uint8Array {
  const gen = familyGeneration();
  let m = familyMasks.get(wanted);
  if (m === undefined || m.gen !== gen || m.mask.length < familyCount()) {
    const mask = new Uint8Array(familyCount() + 64);
    mask[0] = 1;
    for (const family of wanted) {
      const id = knownFamilyId(family);
      if (id !== undefined) mask[id] = 1;
    }
    m = { gen, mask };
    familyMasks.set(wanted, m);
  }
  return m.mask;
}

/** The family number of a market of an event (0: unknown), from the event's book. */
export type FamilyIdOf = (eventId: string, marketId: number) => number;

/** An odds entry's family number per change, worked out once per entry (and generation). */
function filtersOf(entry: OddsEntry, familyIdOf: FamilyIdOf): OddsFilters {
  const gen = familyGeneration();
  let f = oddsFilters.get(entry);
  const c = entry.changes;
  if (f === undefined || f.gen !== gen) {
    const families = new Uint32Array(c.odds.length);
    let at = gen;
    do {
      // Numbering a book's families may start a new generation: then this entry's are read again.
      at = familyGeneration();
      let lastMarket = Number.NaN;
      let family = 0;
      for (let k = 0; k < families.length; k++) {
        const marketId = c.marketIds[k] as number;
        if (marketId !== lastMarket) {
          lastMarket = marketId;
          family = familyIdOf(entry.eventId, marketId);
        }
        families[k] = family;
      }
    } while (at !== familyGeneration());
    f = { gen: at, families, kept: new Map() };
    oddsFilters.set(entry, f);
  }
  return f;
}

/** The family number of each change of an odds entry (0: unknown market), in this generation. */
export function changeFamilies(entry: OddsEntry, familyIdOf: FamilyIdOf): Uint32Array {
  return filtersOf(entry, familyIdOf).families;
}

/**
 * Tells the filters an odds entry's family numbers (a stream process is handed them with the entry:
 * it has no books to look them up in).
 */
export function knowFamilies(entry: OddsEntry, families: Uint32Array): void {
  oddsFilters.set(entry, { gen: familyGeneration(), families, kept: new Map() });
}

/**
 * Which changes of an odds entry a families filter keeps (indices into entry.changes, in order),
 * remembered per entry and filter.
 */
export function keptChanges(entry: OddsEntry, wanted: ReadonlySet<string>, familyIdOf: FamilyIdOf): Uint32Array {
  const f = filtersOf(entry, familyIdOf);
  let fk = familiesKeys.get(wanted);
  if (fk === undefined) familiesKeys.set(wanted, (fk = [...wanted].sort().join(',')));
  let kept = f.kept.get(fk);
  if (kept === undefined) {
    const mask = maskOf(wanted);
    const families = f.families;
    let n = 0;
    for (let k = 0; k < families.length; k++) n += mask[families[k] as number] ?? 0;
    kept = new Uint32Array(n);
    for (let k = 0, i = 0; k < families.length; k++) if (mask[families[k] as number] === 1) kept[i++] = k;
    f.kept.set(fk, kept);
  }
  return kept;
}

/** Family numbers from market keys. */
function familyIdFromKey(keyOf: RenderOptions['keyOf']): FamilyIdOf {
  return (eventId, marketId) => {
    const key = keyOf?.(eventId, marketId);
    return key === undefined ? 0 : familyIdOfKey(key);
  };
}

function changeJson(c: OddsEntry['changes'], k: number, format: OddsFormat): string {
  return `{"market_id":${c.marketIds[k] as number},"selection_id":${c.selectionIds[k] as number},"odds":${oddsJson(c.odds[k] as number, format)},"is_locked":${c.locked[k] === 1}}`;
}

function renderOdds(entry: OddsEntry, opts: RenderOptions): string | null {
  const c = entry.changes;
  let out = '';
  if (opts.families === null) {
    for (let k = 0; k < c.odds.length; k++) out += `${k === 0 ? '' : ','}${changeJson(c, k, opts.format)}`;
  } else {
    const kept = keptChanges(entry, opts.families, opts.familyIdOf ?? familyIdFromKey(opts.keyOf));
    for (let i = 0; i < kept.length; i++)
      out += `${i === 0 ? '' : ','}${changeJson(c, kept[i] as number, opts.format)}`;
  }
  if (out === '') return null;
  return withExtra(`{"event_id":${JSON.stringify(entry.eventId)},"changes":[${out}]}`, opts.extra);
}

/** A market as the odds payload writes it (interface.md's Market). */
export function marketJson(m: Market, format: OddsFormat): string {
  const outcomes = m.outcomes.map(
    (o) =>
      `{"selection_id":${o.selectionId},"code":${JSON.stringify(o.code)},"label":${JSON.stringify(o.label)},"odds":${oddsJson(o.odds, format)},"is_locked":${o.isLocked},"team_side":${o.teamSide === null ? 'null' : JSON.stringify(o.teamSide)},"opening_odds":${oddsJson(o.openingOdds ?? o.odds, format)},"closing_odds":${o.closingOdds == null ? 'null' : oddsJson(o.closingOdds, format)}}`,
  );
  return `{"market_id":${m.marketId},"key":${JSON.stringify(m.key)},"name":${JSON.stringify(m.name)},"outcomes":[${outcomes.join(',')}]}`;
}

function renderMarkets(entry: MarketsEntry, opts: RenderOptions): string | null {
  const added = opts.families === null ? entry.added : entry.added.filter((m) => opts.families?.has(familyOf(m.key)));
  let withdrawn = entry.withdrawn;
  if (opts.families !== null) {
    withdrawn = withdrawn.filter((id) => {
      const key = opts.keyOf?.(entry.eventId, id);
      return key === undefined || opts.families?.has(familyOf(key)) === true;
    });
  }
  if (added.length === 0 && withdrawn.length === 0 && entry.added.length + entry.withdrawn.length > 0) return null;
  return withExtra(
    `{"event_id":${JSON.stringify(entry.eventId)},"added":[${added.map((m) => marketJson(m, opts.format)).join(',')}],"withdrawn":[${withdrawn.join(',')}]}`,
    opts.extra,
  );
}

function renderOutright(entry: OutrightEntry, opts: RenderOptions): string {
  const m = entry.market;
  const market =
    m === null
      ? 'null'
      : `{"market_id":${m.marketId},"market":${JSON.stringify(m.market)},"selections":[${offeredSelections(m)
          .map(
            (s) =>
              `{"selection_id":${s.selectionId},"selection":${JSON.stringify(s.selection)},"odds":${oddsJson(s.odds, opts.format)}}`,
          )
          .join(',')}],"updated_at":${JSON.stringify(iso(m.updatedAt))}}`;
  return withExtra(
    `{"tournament_id":${JSON.stringify(entry.eventId)},"tournament":${JSON.stringify(entry.tournament)},"sport":${JSON.stringify(entry.sport)},"change":"${entry.change}","market":${market},"result":${entry.resultJson ?? 'null'}}`,
    opts.extra,
  );
}
