// One edition of a tournament: its model, its markets with stable ids, prices at a time and the results at the end.
import { sportByKey } from '../../../domain/sports.js';
import type { OutrightMarketMessage, OutrightResultMessage, TournamentMessage } from '../../messages.js';
import type { SimConfig } from '../config.js';
import { toOdds } from '../pricing/margin.js';
import { Rng } from '../rng.js';
import { editionTimes, tournamentIdOf, tournamentNameOf, type EditionTimes, type Series } from './calendar.js';
import { outrightMarketId, outrightSelectionId, tournamentNumber } from './ids.js';
import { Knockout } from './knockout.js';
import { LeagueSeason } from './league-season.js';
import { MARKET_KINDS, type FairTable, type MarketKind, type TournamentModel } from './model.js';
import { SPORT_MODELS } from './plans.js';

export interface OutrightMarketSpec {
  kind: MarketKind;
  marketId: number;
  name: string;
  /** How many selections win (1 for a winner market, 4 for a top-4 finish…), before dead heats. */
  places: number;
  /** Team (league index) or racer position behind each selection, in selection order. */
  keys: number[];
  selections: Array<{ selection_id: number; selection: string }>;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The longest price of a selection still in the running (500/1). The Monte Carlo cannot tell a
 * 1-in-5,000 outsider from a 1-in-50,000 one, and books quote such outsiders at a round 500/1
 * rather than at their price limit; only an eliminated selection reaches the limit, and it is not
 * offered (it is sent with `eliminated: true`).
 */
export const LONGEST_LIVE_ODDS = 501;

export class Edition {
  readonly id: string;
  readonly name: string;
  readonly times: EditionTimes;
  readonly markets: OutrightMarketSpec[];
  private readonly model: TournamentModel;
  private pricedRounds = -1;
  private fairTable: FairTable = {};

  constructor(
    private readonly seed: number,
    readonly series: Series,
    readonly k: number,
    private readonly config: SimConfig,
  ) {
    this.id = tournamentIdOf(series, k);
    this.name = tournamentNameOf(series, k);
    this.times = editionTimes(series, k);
    const { league, plan } = series;
    const model = SPORT_MODELS[league.sport] ?? SPORT_MODELS.soccer!;
    this.model =
      plan.format === 'knockout'
        ? new Knockout({ seed, id: this.id, teams: league.teams, model, drawSize: plan.drawSize, race: plan.race })
        : new LeagueSeason({
            seed,
            id: this.id,
            teams: league.teams,
            model,
            rounds: plan.rounds,
            top: plan.top,
            relegation: plan.relegation,
            race: plan.race,
          });
    this.markets = this.buildMarkets();
  }

  private buildMarkets(): OutrightMarketSpec[] {
    const { plan, league } = this.series;
    const num = tournamentNumber(league.index, this.k);
    const teams = [...this.model.entrants];
    const racers = this.model.racers.map((_, i) => i);
    const defs: Array<[MarketKind, string, number, number[]]> = [['winner', 'Winner', 1, teams]];
    if (plan.format === 'league' && plan.top > 0) defs.push(['top', `Top ${plan.top} finish`, plan.top, teams]);
    if (plan.format === 'knockout' && plan.rounds >= 2) defs.push(['final', 'To reach the final', 2, teams]);
    if (plan.relegation > 0) defs.push(['relegation', 'Relegation', plan.relegation, teams]);
    if (plan.race !== null && racers.length > 0) {
      defs.push(['race', plan.race.market, 1, racers]);
      if (plan.race.top !== undefined) defs.push(['race_top', plan.race.top.market, plan.race.top.places, racers]);
    }
    return defs.map(([kind, name, places, keys]) => {
      const marketId = outrightMarketId(num, MARKET_KINDS.indexOf(kind));
      const racer = kind === 'race' || kind === 'race_top';
      return {
        kind,
        marketId,
        name,
        places,
        keys,
        selections: keys.map((key, position) => ({
          selection_id: outrightSelectionId(marketId, position),
          selection: racer ? this.model.racers[key]!.name : league.teams[key]!.name,
        })),
      };
    });
  }

  /** Rounds played by time `t`. */
  playedAt(t: number): number {
    let n = 0;
    for (const r of this.times.rounds) if (r <= t) n++;
    return n;
  }

  tournamentMessage(ts: number): TournamentMessage {
    const sport = this.series.league.sport;
    return {
      type: 'tournament',
      ts: iso(ts),
      tournament_id: this.id,
      tournament: this.name,
      sport,
      sport_id: sportByKey(sport)!.sportId,
    };
  }

  /**
   * Odds of every market from the state at `t` (never earlier than the last call). Prices depend on
   * the state only (the Monte Carlo stream is named by the rounds played), so a restart re-prices
   * a state exactly as the first run did.
   */
  odds(t: number): Map<number, number[]> {
    const played = this.playedAt(t);
    this.model.advanceTo(played);
    if (this.model.played !== this.pricedRounds) {
      const rng = Rng.derive(this.seed, 'outright-price', this.id, this.model.played);
      this.fairTable = this.model.fair(this.config.outrightSimulations, rng);
      this.pricedRounds = this.model.played;
    }
    const out = new Map<number, number[]>();
    for (const m of this.markets) {
      const p = this.fairTable[m.kind];
      const { margin, maxOdds } = this.config;
      // Margin on each selection alone: with 20 or 60 of them, moving a clamped favourite's share onto
      // the longshots (as two- and three-way match markets do) would price near-certain losers short.
      const gone = this.model.eliminated(m.kind);
      const longest = Math.min(LONGEST_LIVE_ODDS, maxOdds);
      out.set(
        m.marketId,
        m.keys.map((key) =>
          gone.has(key) ? maxOdds : Math.min(longest, toOdds((p?.[key] ?? 0) * (1 + margin), maxOdds)),
        ),
      );
    }
    return out;
  }

  /** Which selections of a market are eliminated, as of the state the last `odds` call reached. */
  eliminatedOf(m: OutrightMarketSpec): boolean[] {
    const out = this.model.eliminated(m.kind);
    return m.keys.map((key) => out.has(key));
  }

  marketMessage(m: OutrightMarketSpec, odds: readonly number[], ts: number): OutrightMarketMessage {
    const eliminated = this.eliminatedOf(m);
    return {
      type: 'outright_market',
      ts: iso(ts),
      tournament_id: this.id,
      market_id: m.marketId,
      market: m.name,
      selections: m.selections.map((s, i) => ({
        ...s,
        odds: odds[i]!,
        ...(eliminated[i] === true ? { eliminated: true } : {}),
      })),
    };
  }

  /**
   * The settlement of each market (all of them, or those listed): winners with dead-heat factors
   * where a tie straddles the last place, or void at the configured rate.
   */
  resultMessages(ts: number, only?: ReadonlySet<number>): OutrightResultMessage[] {
    this.model.advanceTo(this.times.rounds.length);
    const final = this.model.final();
    const out: OutrightResultMessage[] = [];
    for (const m of this.markets) {
      if (only !== undefined && !only.has(m.marketId)) continue;
      const base = { type: 'outright_result' as const, ts: iso(ts), tournament_id: this.id, market_id: m.marketId };
      if (Rng.derive(this.seed, 'outright-void', this.id, m.kind).chance(this.config.outrightVoidRate)) {
        out.push({ ...base, void: true });
        continue;
      }
      const position = new Map(m.keys.map((key, i) => [key, i]));
      const winners = (final[m.kind] ?? []).map((w) => {
        const selectionId = m.selections[position.get(w.index)!]!.selection_id;
        return w.factor < 1 ? { selection_id: selectionId, dead_heat_factor: w.factor } : { selection_id: selectionId };
      });
      out.push({ ...base, winners });
    }
    return out;
  }
}
