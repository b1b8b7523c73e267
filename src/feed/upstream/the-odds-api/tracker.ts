// What this adapter has already told the pipeline about each provider event, so each poll sends only what changed (and never invents a change).
import type { FeedMessage, MarketDef, OddsChange } from '../../messages.js';
import { eventIdOf } from './ids.js';
import { marketsOf, scoreOf } from './markets.js';
import type { OddsEvent, ScoreEvent } from './provider-types.js';
import { leagueOf } from './sports.js';

/** Within /scores?daysFrom=1's reach: older games are not polled for any more. */
const GIVE_UP_MS = 24 * 3600_000;

interface Tracked {
  sportKey: string;
  startAt: number;
  fixture: string;
  /** Market key → the market as last sent. */
  markets: Map<string, MarketDef>;
  phase: 'prematch' | 'live' | 'ended';
  score: string | null;
}

export interface TrackerSummary {
  /** Events started (or within `soonMs` of it) and not ended: they want frequent polls and the /scores call. */
  hot: number;
  /** Events not ended that started already: /scores is needed for them. */
  started: number;
  /** The nearest start among events not started yet (ms), or null. */
  nextStartAt: number | null;
}

export class EventTracker {
  private readonly events = new Map<string, Tracked>();
  /** Provider sport keys we cannot map (reported once by the caller). */
  readonly unmapped = new Set<string>();

  constructor(private readonly bookmaker: string) {}

  /** Messages for one /odds answer: new or changed fixtures, new markets, price changes, markets withdrawn. */
  fromOdds(events: OddsEvent[]): FeedMessage[] {
    const out: FeedMessage[] = [];
    for (const ev of events) {
      const mapped = leagueOf(ev.sport_key, ev.sport_title);
      if (mapped === null) {
        this.unmapped.add(ev.sport_key);
        continue;
      }
      const event_id = eventIdOf(ev.id);
      let t = this.events.get(ev.id);
      // An ended event is closed for good: odds for it would be refused, and nothing reopens it.
      if (t?.phase === 'ended') continue;
      const fixture: FeedMessage = {
        type: 'fixture',
        event_id,
        sport: mapped.sport,
        league: mapped.league,
        home_team: ev.home_team,
        away_team: ev.away_team,
        start_time: new Date(Date.parse(ev.commence_time)).toISOString(),
      };
      const fixtureText = JSON.stringify(fixture);
      if (t === undefined) {
        t = {
          sportKey: ev.sport_key,
          startAt: Date.parse(ev.commence_time),
          fixture: '',
          markets: new Map(),
          phase: 'prematch',
          score: null,
        };
        this.events.set(ev.id, t);
      }
      // A live game's fixture is left as it is: a moved kick-off after the start means nothing to us.
      if (t.fixture !== fixtureText && t.phase === 'prematch') {
        out.push(fixture);
        t.fixture = fixtureText;
        t.startAt = Date.parse(ev.commence_time);
      }
      out.push(...this.marketChanges(event_id, t, marketsOf(ev, this.bookmaker, mapped.sport)));
    }
    return out;
  }

  private marketChanges(event_id: string, t: Tracked, markets: MarketDef[]): FeedMessage[] {
    const added: MarketDef[] = [];
    const changes: OddsChange[] = [];
    for (const m of markets) {
      const before = t.markets.get(m.key);
      if (before === undefined) added.push(m);
      else {
        for (const o of m.outcomes) {
          const old = before.outcomes.find((x) => x.selection_id === o.selection_id);
          if (old?.odds !== o.odds) changes.push({ selection_id: o.selection_id, odds: o.odds });
        }
      }
      t.markets.set(m.key, m);
    }
    // A market the bookmaker no longer quotes (its line moved, or it was taken down) is withdrawn.
    const keys = new Set(markets.map((m) => m.key));
    const gone = [...t.markets.values()].filter((m) => !keys.has(m.key));
    for (const m of gone) t.markets.delete(m.key);
    const out: FeedMessage[] = [];
    if (gone.length > 0) out.push({ type: 'remove_markets', event_id, market_ids: gone.map((m) => m.market_id) });
    if (added.length > 0) out.push({ type: 'markets', event_id, markets: added });
    if (changes.length > 0) out.push({ type: 'odds', event_id, changes });
    return out;
  }

  /**
   * Messages for one /scores answer, for events we announced: `live` once scores show for a started
   * game, each new score, and the result once `completed` (again, as a correction, if a completed
   * game's score changes). Events we never announced, or the provider does not list, get nothing.
   */
  fromScores(events: ScoreEvent[], now: number): FeedMessage[] {
    const out: FeedMessage[] = [];
    for (const ev of events) {
      const t = this.events.get(ev.id);
      if (t === undefined) continue;
      const event_id = eventIdOf(ev.id);
      const score = scoreOf(ev);
      if (score === null) continue;
      const text = `${score.home}-${score.away}`;
      if (ev.completed) {
        if (t.phase === 'ended' && t.score === text) continue;
        if (t.phase === 'prematch') out.push({ type: 'status', event_id, status: 'live' });
        out.push({
          type: 'result',
          event_id,
          status: 'ended',
          score,
          ended_at: new Date(ev.last_update !== null ? Date.parse(ev.last_update) : now).toISOString(),
        });
        t.phase = 'ended';
        t.score = text;
        continue;
      }
      if (t.phase === 'ended') continue;
      // Scores before the advertised start are not a kick-off we trust (the provider lists 0-0 early for some sports).
      if (Date.parse(ev.commence_time) > now) continue;
      if (t.phase === 'prematch') {
        out.push({ type: 'status', event_id, status: 'live' });
        t.phase = 'live';
      }
      if (t.score !== text) {
        out.push({ type: 'score', event_id, score });
        t.score = text;
      }
    }
    return out;
  }

  /** The state of one provider sport's events, for the polling plan. */
  summary(sportKey: string, now: number, soonMs: number): TrackerSummary {
    let hot = 0;
    let started = 0;
    let nextStartAt: number | null = null;
    for (const t of this.events.values()) {
      if (t.sportKey !== sportKey || t.phase === 'ended') continue;
      // A game the provider never reported a score for a day after its start was dropped: stop asking.
      if (t.startAt < now - GIVE_UP_MS) continue;
      if (t.phase === 'live' || t.startAt <= now) started++;
      if (t.phase === 'live' || t.startAt <= now + soonMs) hot++;
      if (t.startAt > now && (nextStartAt === null || t.startAt < nextStartAt)) nextStartAt = t.startAt;
    }
    return { hot, started, nextStartAt };
  }

  /** Forgets everything sent: the next answers are sent whole again. */
  reset(): void {
    this.events.clear();
  }

  /** Forgets ended events older than `beforeMs` (memory stays bounded over a season). */
  prune(beforeMs: number): void {
    for (const [id, t] of this.events) if (t.phase === 'ended' && t.startAt < beforeMs) this.events.delete(id);
  }
}
