// The stream section's clients: a seeded mix of filters (sport, event_ids, types, markets, odds_format) over the capacity world's live events.
import type { OddsFormat } from '../src/domain/types.js';
import type { LiveBook } from './capacity-world.js';
import { prng } from './world.js';

/** One stream client: the query it opens the stream with and the odds format it reads stamps in. */
export interface StreamClientSpec {
  id: number;
  /** Its kind in the mix (reported per kind). */
  kind: string;
  query: string;
  format: OddsFormat;
}

/** The sport key of a capacity event id (`cap-american-football-7` → american_football). */
export function sportOfCapacityId(eventId: string): string {
  const m = /^cap-(.+)-\d+$/.exec(eventId);
  if (m === null) throw new Error(`not a capacity event id: ${eventId}`);
  return m[1]!.replaceAll('-', '_');
}

/**
 * Stamp-carrying families always requested by a `markets` filter (the stamp is the first outcome
 * of 1x2 in soccer, of moneyline elsewhere), so every client reading odds sees every tick's stamp.
 */
const STAMP_FAMILIES = '1x2,moneyline';

/**
 * The mix, shares of the clients (the rest are bet trackers): what a public stream serves — most
 * clients follow a few games, boards follow a sport's main markets, scoreboards no prices, and a
 * couple of firehoses take everything.
 */
const KINDS: ReadonlyArray<{ kind: string; share: number }> = [
  { kind: 'firehose', share: 0.002 },
  { kind: 'sport-main-markets', share: 0.08 },
  { kind: 'sport-lines', share: 0.01 },
  { kind: 'scoreboard', share: 0.1 },
  { kind: 'tracker-main', share: 0.2 },
];

// Fractional clients read `fractional_exact`: the ladder's `fractional` cannot carry a latency stamp (stream-stamp.ts).
const FORMATS: readonly OddsFormat[] = ['decimal', 'decimal', 'american', 'fractional_exact'];

export function streamClientMix(live: readonly LiveBook[], count: number, seed: number): StreamClientSpec[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const ids = live.map((e) => e.eventId);
  const sports = [...new Set(ids.map(sportOfCapacityId))];
  const someIds = (n: number): string[] => {
    const out = new Set<string>();
    while (out.size < Math.min(n, ids.length)) out.add(pick(ids));
    return [...out];
  };
  const specs: StreamClientSpec[] = [];
  let next = 0;
  const add = (kind: string, params: Record<string, string>, format: OddsFormat): void => {
    if (format !== 'decimal') params.odds_format = format;
    specs.push({ id: next++, kind, query: new URLSearchParams(params).toString(), format });
  };
  for (const { kind, share } of KINDS) {
    const n = kind === 'firehose' ? Math.max(1, Math.round(count * share)) : Math.round(count * share);
    for (let i = 0; i < n && specs.length < count; i++) {
      const format = kind === 'firehose' ? (i % 2 === 0 ? 'decimal' : 'fractional_exact') : pick(FORMATS);
      switch (kind) {
        case 'firehose':
          add(kind, {}, format);
          break;
        case 'sport-main-markets':
          add(kind, { sport: pick(sports), markets: STAMP_FAMILIES, types: 'odds,status,score' }, format);
          break;
        case 'sport-lines':
          add(kind, { sport: pick(sports), markets: `${STAMP_FAMILIES},totals,spread,asian_handicap` }, format);
          break;
        case 'scoreboard':
          add(kind, { sport: pick(sports), types: 'score,status,result,settlement' }, format);
          break;
        case 'tracker-main':
          add(kind, { event_ids: someIds(5 + Math.floor(random() * 16)).join(','), markets: STAMP_FAMILIES }, format);
          break;
      }
    }
  }
  // Bet trackers: one to five games, every market, prices, scores and statuses.
  while (specs.length < count) {
    add(
      'tracker',
      { event_ids: someIds(1 + Math.floor(random() * 5)).join(','), types: 'odds,score,status,result' },
      pick(FORMATS),
    );
  }
  return specs;
}
