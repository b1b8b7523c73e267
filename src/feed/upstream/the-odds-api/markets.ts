// Pure mapping of one provider event's bookmaker prices to our markets: h2h → 1x2/moneyline, spreads → asian_handicap, totals → totals (ice hockey: their `_ot` twins).
import { PUCK_LINE_OT, TOTALS_OT } from '../../../domain/families/index.js';
import { formatMarketKey, isValidLine } from '../../../domain/market-key.js';
import type { MarketDef, Outcome } from '../../messages.js';
import { marketIdOf, selectionIdOf } from './ids.js';
import type { OddsEvent, ProviderOutcome } from './provider-types.js';

/** The provider markets asked for; each one multiplies the credits an /odds call costs. */
export const PROVIDER_MARKETS = ['h2h', 'spreads', 'totals'] as const;

/** Prices below this are not valid feed odds (docs/contract/feed.md). */
const MIN_ODDS = 1.01;

/** One outcome as we name it, with its price and (for lines) the line from the home side's view. */
interface Priced {
  code: string;
  label: string;
  side: 'home' | 'away' | null;
  price: number;
  line: number | null;
}

/** A provider market's outcomes in our codes, or null when they do not form the market we expect. */
function codesOf(ev: OddsEvent, marketKey: string, outcomes: ProviderOutcome[]): Priced[] | null {
  const home = outcomes.find((o) => o.name === ev.home_team);
  const away = outcomes.find((o) => o.name === ev.away_team);
  if (marketKey === 'h2h') {
    if (home === undefined || away === undefined) return null;
    const draw = outcomes.find((o) => o.name.toLowerCase() === 'draw');
    const priced: Priced[] = [
      { code: 'home', label: ev.home_team, side: 'home', price: home.price, line: null },
      ...(draw ? [{ code: 'draw', label: 'Draw', side: null, price: draw.price, line: null }] : []),
      { code: 'away', label: ev.away_team, side: 'away', price: away.price, line: null },
    ];
    return outcomes.length === priced.length ? priced : null;
  }
  if (marketKey === 'spreads') {
    // The provider gives each team its own handicap; ours is the home side's (away's is its negation).
    if (home?.point === undefined || away?.point === undefined || home.point !== -away.point) return null;
    return [
      { code: 'home', label: ev.home_team, side: 'home', price: home.price, line: home.point },
      { code: 'away', label: ev.away_team, side: 'away', price: away.price, line: home.point },
    ];
  }
  if (marketKey === 'totals') {
    const over = outcomes.find((o) => o.name.toLowerCase() === 'over');
    const under = outcomes.find((o) => o.name.toLowerCase() === 'under');
    if (over?.point === undefined || under?.point === undefined || over.point !== under.point) return null;
    return [
      { code: 'over', label: 'Over', side: null, price: over.price, line: over.point },
      { code: 'under', label: 'Under', side: null, price: under.price, line: over.point },
    ];
  }
  return null;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const m = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return Math.round(m * 1000) / 1000;
}

/**
 * The prices to show for one provider market: the named bookmaker's, or with `consensus` the
 * median price per outcome across the bookmakers quoting the line most of them quote (a tie goes to
 * the smaller line, so the choice does not depend on the order bookmakers are listed in).
 */
export function choosePrices(ev: OddsEvent, marketKey: string, bookmaker: string): Priced[] | null {
  const quotes: Priced[][] = [];
  for (const b of ev.bookmakers) {
    if (bookmaker !== 'consensus' && b.key !== bookmaker) continue;
    const m = b.markets.find((x) => x.key === marketKey);
    const priced = m ? codesOf(ev, marketKey, m.outcomes) : null;
    if (priced) quotes.push(priced);
  }
  if (quotes.length === 0) return null;
  if (bookmaker !== 'consensus') return quotes[0]!;
  const byLine = new Map<string, Priced[][]>();
  for (const q of quotes) {
    const k = String(q[0]!.line);
    byLine.set(k, [...(byLine.get(k) ?? []), q]);
  }
  const [, chosen] = [...byLine.entries()].sort(
    ([la, a], [lb, b]) => b.length - a.length || Number(la) - Number(lb),
  )[0]!;
  return chosen[0]!.map((o, i) => ({ ...o, price: median(chosen.map((q) => q[i]!.price)) }));
}

/**
 * Our market key and display name for a provider market at a line. Ice hockey `spreads` and
 * `totals` include overtime and the shoot-out at the provider (as North American books settle
 * them): they are our `puck_line_ot` and `totals_ot`, never the regulation-time `asian_handicap`
 * and `totals`.
 */
function keyAndName(
  marketKey: string,
  sport: string,
  hasDraw: boolean,
  line: number | null,
): { key: string; name: string } | null {
  if (marketKey === 'h2h') return hasDraw ? { key: '1x2', name: '1X2' } : { key: 'moneyline', name: 'Moneyline' };
  if (line === null || !isValidLine(line)) return null;
  const hockey = sport === 'ice_hockey';
  if (marketKey === 'spreads') {
    if (hockey)
      return {
        key: formatMarketKey({ family: PUCK_LINE_OT.key, period: null, line }),
        name: `${PUCK_LINE_OT.name} ${line}`,
      };
    return { key: formatMarketKey({ family: 'asian_handicap', period: null, line }), name: `Asian Handicap ${line}` };
  }
  if (hockey)
    return { key: formatMarketKey({ family: TOTALS_OT.key, period: null, line }), name: `${TOTALS_OT.name} ${line}` };
  return { key: formatMarketKey({ family: 'totals', period: null, line }), name: `Total ${line}` };
}

/**
 * Sports whose `spreads` and `totals` our catalog grades as the provider means them, from the final
 * score alone (ice hockey's with the `_ot` families, which count overtime and a shoot-out goal, as
 * the provider's final score does). Elsewhere they are left out: tennis lines count games, which
 * the provider's score (sets) does not say.
 */
const LINES_FROM_FINAL_SCORE: ReadonlySet<string> = new Set([
  'soccer',
  'basketball',
  'american_football',
  'ice_hockey',
  'baseball',
  'rugby',
  'handball',
]);

/** Our markets for one provider event (`sport`: ours), with ids derived from the provider's event id and our market key. */
export function marketsOf(ev: OddsEvent, bookmaker: string, sport: string): MarketDef[] {
  const out: MarketDef[] = [];
  for (const providerKey of PROVIDER_MARKETS) {
    if (providerKey !== 'h2h' && !LINES_FROM_FINAL_SCORE.has(sport)) continue;
    const priced = choosePrices(ev, providerKey, bookmaker);
    if (priced === null || priced.some((o) => !(o.price >= MIN_ODDS))) continue;
    const named = keyAndName(
      providerKey,
      sport,
      priced.some((o) => o.code === 'draw'),
      priced[0]!.line,
    );
    if (named === null) continue;
    const outcomes: Outcome[] = priced.map((o) => ({
      selection_id: selectionIdOf(ev.id, named.key, o.code),
      code: o.code,
      label: o.label,
      odds: o.price,
      team_side: o.side,
    }));
    out.push({ market_id: marketIdOf(ev.id, named.key), key: named.key, name: named.name, outcomes });
  }
  return out;
}

/** The final or running score from a /scores item, matched by team name; null when not both are there. */
export function scoreOf(ev: {
  home_team: string;
  away_team: string;
  scores: Array<{ name: string; score: string }> | null;
}): { home: number; away: number } | null {
  if (ev.scores === null) return null;
  const read = (team: string): number | null => {
    const s = ev.scores!.find((x) => x.name === team);
    if (s === undefined || !/^\d+$/.test(s.score.trim())) return null;
    return Number(s.score.trim());
  };
  const home = read(ev.home_team);
  const away = read(ev.away_team);
  return home === null || away === null ? null : { home, away };
}
