// The tournaments of the world over time: publication, 3-hourly price refreshes and settlement, as feed messages.
import type { FeedMessage } from '../../messages.js';
import type { SimConfig } from '../config.js';
import type { SimLeague } from '../world.js';
import { buildSeries, editionOfId, editionTimes, nextEditionAfter, openEditions, type Series } from './calendar.js';
import { Edition } from './edition.js';

export interface OutrightWorldOptions {
  seed: number;
  config: SimConfig;
  /** Leagues that run tournaments. */
  leagues: readonly SimLeague[];
  /** Every league of the world (decides which tournament names need a country). */
  allLeagues: readonly SimLeague[];
}

export class OutrightWorld {
  readonly series: Series[];
  /** Editions published and not yet settled, by tournament id. */
  private readonly open = new Map<string, Edition>();
  /** Per series: the next edition to publish and when. */
  private readonly nextEdition: number[] = [];
  private readonly nextPublishAt: number[] = [];
  private nextRefreshAt = Infinity;
  /** Last odds sent per market, to send a market again only when a price moved. */
  private readonly sent = new Map<number, string>();

  constructor(private readonly opts: OutrightWorldOptions) {
    this.series = buildSeries(opts.seed, opts.leagues, opts.allLeagues);
  }

  private get refreshMs(): number {
    return this.opts.config.outrightRefreshMs;
  }

  /**
   * The state at `t`: every listed tournament with its markets as last priced (at the latest refresh
   * tick, or at publication), so a restart repeats what a continuous run had sent. Tournaments the
   * consumer still holds open (`openOutrights`: id → unsettled market ids) that are over by `t` are
   * settled now; those this world does not know are voided.
   */
  init(t: number, openOutrights?: ReadonlyMap<string, readonly number[]>): FeedMessage[] {
    const out: FeedMessage[] = [];
    this.series.forEach((s, i) => {
      for (const k of openEditions(s, t)) this.publish(new Edition(this.opts.seed, s, k, this.opts.config), t, out);
      this.nextEdition[i] = nextEditionAfter(s, t);
      this.nextPublishAt[i] = editionTimes(s, this.nextEdition[i]!).publishAt;
    });
    this.nextRefreshAt = (Math.floor(t / this.refreshMs) + 1) * this.refreshMs;
    if (openOutrights !== undefined) this.closeStale(t, openOutrights, out);
    return out;
  }

  private closeStale(t: number, openOutrights: ReadonlyMap<string, readonly number[]>, out: FeedMessage[]): void {
    for (const [id, marketIds] of openOutrights) {
      if (this.open.has(id) || marketIds.length === 0) continue;
      const found = editionOfId(this.series, id);
      const over = found !== null && editionTimes(found.series, found.k).end <= t;
      const results = over
        ? new Edition(this.opts.seed, found.series, found.k, this.opts.config).resultMessages(t)
        : [];
      for (const marketId of marketIds) {
        const r = results.find((m) => m.market_id === marketId);
        out.push(
          r ?? {
            type: 'outright_result',
            ts: new Date(t).toISOString(),
            tournament_id: id,
            market_id: marketId,
            void: true,
          },
        );
      }
    }
  }

  /** Sends a tournament and its markets priced as of `t` (its publication, or the last refresh before `t`). */
  private publish(e: Edition, t: number, out: FeedMessage[]): void {
    this.open.set(e.id, e);
    out.push(e.tournamentMessage(t));
    const lastTick = Math.floor(t / this.refreshMs) * this.refreshMs;
    const odds = e.odds(Math.max(e.times.publishAt, lastTick));
    for (const m of e.markets) {
      const o = odds.get(m.marketId)!;
      this.sent.set(m.marketId, `${o.join(',')}|${e.eliminatedOf(m).join(',')}`);
      out.push(e.marketMessage(m, o, t));
    }
  }

  /** When the next thing happens (publication, refresh or settlement); Infinity when nothing is planned. */
  nextAt(): number {
    let at = this.nextRefreshAt;
    for (const p of this.nextPublishAt) if (p < at) at = p;
    for (const e of this.open.values()) if (e.times.end < at) at = e.times.end;
    return at;
  }

  /** What happens at `at` (a time nextAt() gave): settlements, then publications, then a price refresh. */
  run(at: number): FeedMessage[] {
    const out: FeedMessage[] = [];
    const ending = this.listed().filter((e) => e.times.end <= at);
    for (const e of ending) {
      for (const m of e.resultMessages(e.times.end)) out.push(m);
      for (const m of e.markets) this.sent.delete(m.marketId);
      this.open.delete(e.id);
    }
    this.series.forEach((s, i) => {
      while (this.nextPublishAt[i]! <= at) {
        const k = this.nextEdition[i]!;
        this.publish(new Edition(this.opts.seed, s, k, this.opts.config), at, out);
        this.nextEdition[i] = k + 1;
        this.nextPublishAt[i] = editionTimes(s, k + 1).publishAt;
      }
    });
    if (this.nextRefreshAt <= at) {
      for (const e of this.listed()) this.refresh(e, at, out);
      while (this.nextRefreshAt <= at) this.nextRefreshAt += this.refreshMs;
    }
    return out;
  }

  private refresh(e: Edition, at: number, out: FeedMessage[]): void {
    const odds = e.odds(at);
    for (const m of e.markets) {
      const o = odds.get(m.marketId)!;
      // Eliminations are part of what was sent: a flag can change while every price stays put.
      const key = `${o.join(',')}|${e.eliminatedOf(m).join(',')}`;
      if (this.sent.get(m.marketId) === key) continue;
      this.sent.set(m.marketId, key);
      out.push(e.marketMessage(m, o, at));
    }
  }

  /**
   * Listed editions in a canonical order (league, then edition), not the order they were published
   * in: a restarted world then sends the messages of one instant in the same order as the first run.
   */
  private listed(): Edition[] {
    return [...this.open.values()].sort((a, b) => a.series.league.index - b.series.league.index || a.k - b.k);
  }

  /** Tournaments listed now (tests and diagnostics). */
  editions(): Edition[] {
    return this.listed();
  }
}
