// One event's book: stable market/selection ids, last published odds and locks, and the diffs to publish.
import type { MarketDef, OddsChange } from '../messages.js';
import { LINE_GROUPS, LINE_MARKET_BASE, LINE_SELECTION_BASE, LINE_SLOTS, marketIdOf, selectionIdOf } from './ids.js';
import type { FairMarket } from './pricing/fair.js';
import { oddsWithMargin, toOdds, type MarginOptions } from './pricing/margin.js';
import { MIN_DECIMAL_ODDS } from '../../domain/odds.js';
import type { TeamSide } from '../../domain/types.js';

interface BookOutcome {
  selectionId: number;
  code: string;
  odds: number;
  locked: boolean;
}

interface BookMarket {
  marketId: number;
  /** In the order of the fair market's outcomes (fixed per key). */
  outcomes: BookOutcome[];
  /** The last sync whose fair markets had it (one not seen in a sync is locked). */
  seenIn: number;
}

export interface BookOptions extends MarginOptions {
  minProbability: number;
}

export interface BookSync {
  /** Markets the event did not have yet (a `markets` message). */
  added: MarketDef[];
  /** Price and lock changes of known selections (an `odds` message). */
  changes: OddsChange[];
  /** Markets the state has decided, withdrawn now (a `remove_markets` message); kept by the service for grading. */
  withdrawn: number[];
}

interface Priced {
  odds: number[];
  /** Not offered now: decided market, or an outcome too unlikely to price. */
  closed: boolean[];
}

/** A group of line markets (one family and period) as the opening layout has it: the ladder lines are added on in play. */
export interface LineGroup {
  /** Its place among the layout's groups: the block of ids its added lines take. */
  ordinal: number;
  /** Opening lines, ascending. */
  lines: number[];
  /** Distance between neighbouring lines of its ladder. */
  step: number;
  /** The unit its lines are written in (1 for x.5 lines, 0.5, 0.25): a line's slot counts in it. */
  quantum: number;
}

/** Where a market's ids come from: its place in the event's opening (full) market list, or its line's slot. */
export interface BookLayout {
  at(m: FairMarket): { market: number; selection: number } | undefined;
  readonly groups: ReadonlyMap<string, LineGroup>;
}

const onGrid = (x: number, unit: number): boolean => Math.abs(x / unit - Math.round(x / unit)) < 1e-9;

function lineGroup(ordinal: number, lines: number[]): LineGroup {
  lines.sort((a, b) => a - b);
  const quantum = lines.every((l) => onGrid(l - 0.5, 1)) ? 1 : lines.every((l) => onGrid(l, 0.5)) ? 0.5 : 0.25;
  let step = Infinity;
  for (let i = 1; i < lines.length; i++) step = Math.min(step, lines[i]! - lines[i - 1]!);
  if (!Number.isFinite(step) || !onGrid(step, quantum)) step = quantum === 0.25 ? 0.25 : 1;
  return { ordinal, lines, step, quantum };
}

/**
 * The canonical layout of a full market list: ids do not depend on the order markets are published
 * in. A line added in play (live-lines.ts) has no place in it: its ids come from its slot, a pure
 * function of its group's place and its line, so a restarted world gives it the same ids.
 */
export function layoutOf(markets: readonly FairMarket[]): BookLayout {
  const positions = new Map<string, { market: number; selection: number }>();
  const groupLines = new Map<string, number[]>();
  let selection = 0;
  markets.forEach((m, market) => {
    positions.set(m.key, { market, selection });
    selection += m.outcomes.length;
    if (m.line === undefined || m.outcomes.length !== 2) return;
    const lines = groupLines.get(m.line.group);
    if (lines === undefined) groupLines.set(m.line.group, [m.line.value]);
    else lines.push(m.line.value);
  });
  if (markets.length > LINE_MARKET_BASE || selection > LINE_SELECTION_BASE)
    throw new RangeError(`an opening layout of ${markets.length} markets reaches the ids of added lines`);
  const groups = new Map<string, LineGroup>();
  for (const [group, lines] of groupLines) groups.set(group, lineGroup(groups.size, lines));
  return {
    groups,
    at(m) {
      const opening = positions.get(m.key);
      if (opening !== undefined || m.line === undefined || m.outcomes.length !== 2) return opening;
      const g = groups.get(m.line.group);
      if (g === undefined || g.ordinal >= LINE_GROUPS) return undefined;
      const offset = m.line.value - g.lines[0]!;
      if (!onGrid(offset, g.quantum)) return undefined;
      const k = Math.round(offset / g.quantum);
      const slot = g.ordinal * LINE_SLOTS + (((k % LINE_SLOTS) + LINE_SLOTS) % LINE_SLOTS);
      return { market: LINE_MARKET_BASE + slot, selection: LINE_SELECTION_BASE + 2 * slot };
    },
  };
}

export class Book {
  private readonly markets = new Map<string, BookMarket>();
  /** The key each market id was published with: an id never names two markets. */
  private readonly keyOfId = new Map<number, string>();
  /** Keys of markets withdrawn as decided: never published again. */
  private readonly withdrawnKeys = new Set<string>();
  /** All markets were withdrawn (remove_markets all): nothing more is published. */
  removed = false;
  /** In play, a decided market is withdrawn rather than locked (prematch nothing is decided). */
  withdrawDecided = false;
  /** Syncs so far: marks the markets each one saw (a set of a thousand keys per sync cost more). */
  private syncs = 0;

  constructor(
    private readonly eventNum: number,
    private readonly opts: BookOptions,
  ) {}

  /**
   * The whole book is offered again after `remove_markets all` (the end it was withdrawn for was
   * averted): the next sync sends every current market as new (decided ones stay withdrawn).
   */
  restore(): void {
    this.removed = false;
    this.markets.clear();
  }

  get size(): number {
    return this.markets.size;
  }

  private price(m: FairMarket): Priced {
    const n = m.outcomes.length;
    const closed: boolean[] = new Array<boolean>(n);
    const open: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const p = m.outcomes[i]!.p;
      closed[i] = m.decided === true || p < this.opts.minProbability;
      open[i] = closed[i] ? 0 : p;
    }
    let odds = oddsWithMargin(open, this.opts);
    // No outcome is offered at a price bound (1.01 or maxOdds): such a price says the outcome is as
    // good as decided. It is taken off and the rest repriced without it (each at p × (1 + margin)).
    let atBound = false;
    for (let i = 0; i < n; i++) {
      if (!closed[i] && (odds[i]! <= MIN_DECIMAL_ODDS || odds[i]! >= this.opts.maxOdds)) {
        closed[i] = true;
        open[i] = 0;
        atBound = true;
      }
    }
    if (atBound) odds = this.withoutBound(m, open, closed);
    // In play, a two-way line with one side off is no market (a far total: 1.01 against 400; a
    // player's Over he has all but reached): the whole line is taken off until the score brings it
    // back; totals and handicaps are offered around the score instead (live-lines.ts).
    if (this.withdrawDecided && n === 2 && closed[0] !== closed[1] && (m.line !== undefined || m.key.includes(':'))) {
      closed[0] = closed[1] = true;
    }
    for (let i = 0; i < n; i++) {
      // A repriced outcome can reach a bound in turn (a rounding away): it is taken off too.
      if (!closed[i] && (odds[i]! <= MIN_DECIMAL_ODDS || odds[i]! >= this.opts.maxOdds)) closed[i] = true;
      // A closed outcome shows the bound it is taken off at: 1.01 when (near) certain, the maximum
      // when (near) impossible; a client never reads an in-range price on something not offered.
      if (closed[i]) odds[i] = m.outcomes[i]!.p >= 0.5 ? MIN_DECIMAL_ODDS : this.opts.maxOdds;
    }
    return { odds, closed };
  }

  /**
   * The odds of a market with an outcome taken off at a price bound, the rest priced without it
   * (each at p × (1 + margin)). Except before kick-off, in a market whose favourite is at the 1.01
   * bound: each other outcome keeps its share of the margin (p + margin / n, as a two-way market's
   * sides do when both are priced), as books quote a mismatch at 1.01 against 25 rather than 95. Priced alone, a 99%
   * favourite stood at 1.01 against 95.00, a book with an overround under 1% (8% of CS2 and 1% of
   * tennis books; the realism report's `overroundOutShare`). In play a side that far behind is
   * priced alone, so it goes off the board at the maximum price as its chance fades.
   */
  private withoutBound(m: FairMarket, open: number[], closed: boolean[]): number[] {
    const odds = oddsWithMargin(open, this.opts);
    if (this.withdrawDecided) return odds;
    const n = m.outcomes.length;
    let fav = 0;
    for (let i = 1; i < n; i++) if (m.outcomes[i]!.p > m.outcomes[fav]!.p) fav = i;
    if (!closed[fav] || m.outcomes[fav]!.p < 0.5) return odds;
    let total = 0;
    for (const o of m.outcomes) total += o.p;
    for (let i = 0; i < n; i++)
      if (i !== fav && !closed[i])
        odds[i] = toOdds(m.outcomes[i]!.p + (this.opts.margin * total) / n, this.opts.maxOdds);
    return odds;
  }

  /**
   * Brings the book in line with the fair markets. `locked` locks every selection (goal, break,
   * end of game) and leaves prices as they are: a locked selection keeps its last odds.
   */
  sync(fairMarkets: readonly FairMarket[], locked: boolean, layout?: BookLayout): BookSync {
    const added: MarketDef[] = [];
    const changes: OddsChange[] = [];
    const withdrawn: number[] = [];
    if (this.removed) return { added, changes, withdrawn };
    const sync = ++this.syncs;
    for (const m of fairMarkets) {
      if (this.withdrawnKeys.has(m.key)) continue;
      const existing = this.markets.get(m.key);
      if (existing !== undefined) existing.seenIn = sync;
      if (m.decided === true && this.withdrawDecided) {
        // Decided by the state (a period over, a line passed): withdrawn at once, never reopened.
        this.withdrawnKeys.add(m.key);
        if (existing !== undefined) {
          withdrawn.push(existing.marketId);
          this.markets.delete(m.key);
        }
        continue;
      }
      const priced = this.price(m);
      if (existing === undefined) {
        const at = layout?.at(m);
        // Without a layout entry the market cannot get a stable id: it is not published.
        const def = at === undefined ? null : this.add(m, priced, locked, at);
        if (def !== null) added.push(def);
        continue;
      }
      const outs = m.outcomes;
      for (let i = 0; i < outs.length; i++) {
        const bo = existing.outcomes[i];
        if (bo === undefined || bo.code !== outs[i]!.code) continue;
        if (locked) {
          if (!bo.locked) {
            bo.locked = true;
            changes.push({ selection_id: bo.selectionId, is_locked: true });
          }
          continue;
        }
        if (priced.closed[i]) {
          // Taken off by the state (impossible, near-certain): its shown price follows the state too,
          // so a locked selection never shows a price the score has made absurd.
          const odds = priced.odds[i]!;
          if (!bo.locked || odds !== bo.odds) {
            const change: OddsChange = { selection_id: bo.selectionId };
            if (odds !== bo.odds) change.odds = odds;
            if (!bo.locked) change.is_locked = true;
            bo.odds = odds;
            bo.locked = true;
            changes.push(change);
          }
          continue;
        }
        const odds = priced.odds[i]!;
        if (odds !== bo.odds || bo.locked) {
          const change: OddsChange = { selection_id: bo.selectionId };
          if (odds !== bo.odds) change.odds = odds;
          if (bo.locked) change.is_locked = false;
          bo.odds = odds;
          bo.locked = false;
          changes.push(change);
        }
      }
    }
    for (const market of this.markets.values()) {
      if (market.seenIn !== sync) changes.push(...this.lockMarket(market));
    }
    return { added, changes, withdrawn };
  }

  /** Null when the id is another key's (an added line whose slot a line far from it took first). */
  private add(
    m: FairMarket,
    priced: Priced,
    locked: boolean,
    at: { market: number; selection: number },
  ): MarketDef | null {
    const marketId = marketIdOf(this.eventNum, at.market);
    const owner = this.keyOfId.get(marketId);
    if (owner !== undefined && owner !== m.key) return null;
    this.keyOfId.set(marketId, m.key);
    const outcomes: BookOutcome[] = [];
    const def: MarketDef = { market_id: marketId, key: m.key, name: m.name, outcomes: [] };
    m.outcomes.forEach((o, i) => {
      const selectionId = selectionIdOf(this.eventNum, at.selection + i);
      const lock = locked || priced.closed[i]!;
      outcomes.push({ selectionId, code: o.code, odds: priced.odds[i]!, locked: lock });
      const side: TeamSide | null = o.side;
      def.outcomes.push({
        selection_id: selectionId,
        code: o.code,
        label: o.label,
        odds: priced.odds[i]!,
        team_side: side,
        is_locked: lock,
      });
    });
    this.markets.set(m.key, { marketId, outcomes, seenIn: this.syncs });
    return def;
  }

  private lockMarket(market: BookMarket): OddsChange[] {
    const out: OddsChange[] = [];
    for (const o of market.outcomes) {
      if (!o.locked) {
        o.locked = true;
        out.push({ selection_id: o.selectionId, is_locked: true });
      }
    }
    return out;
  }

  /** Locks every selection (keeping its odds). */
  lockAll(): OddsChange[] {
    if (this.removed) return [];
    const out: OddsChange[] = [];
    for (const m of this.markets.values()) out.push(...this.lockMarket(m));
    return out;
  }
}
