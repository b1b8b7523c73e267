// Test helper: follows one game's messages as a client would and measures its in-play book (open time, locks, decided markets, bounds).
import type { FeedMessage, ScoreMessage } from '../../../src/feed/messages.js';

/** Families that settle on the whole game's winner: the "main" market a client expects open in play. */
const MAIN_FAMILIES = new Set(['moneyline', '1x2', 'match_winner']);
/** Sports whose score row sums are the points/goals a totals line counts (tennis: games). */
const COUNTED = new Set(['soccer', 'basketball', 'ice_hockey', 'handball', 'baseball', 'tennis', 'american_football']);

export interface InPlayReport {
  /** Live time (first `live` status to the result), simulated ms. */
  liveMs: number;
  /** Live time with not a single open selection. */
  noOpenMs: number;
  /** Live time with no open selection in a main (winner) market. */
  noMainMs: number;
  /**
   * Live time up to the last instant a main market was open (after it, the game is as good as
   * decided: the leader at the 1.01 bound, the other side beyond the maximum price).
   */
  mainLifeMs: number;
  /** Live time within mainLifeMs with no main market open (locks while it was still in play). */
  mainLockedInLifeMs: number;
  /** Longest continuous stretch with no open selection at all. */
  longestNoOpenMs: number;
  /** Longest continuous stretch with markets offered and every one of them locked (a suspension, not a withdrawn book). */
  longestLockedMs: number;
  /** Markets left open although the state decided them (first few, with the state). */
  openDecided: string[];
  /** Open outcomes offered at a price bound (first few). */
  atBounds: string[];
  /** A clock that ran backwards within a period (first few). */
  clockBack: string[];
}

interface Sel {
  marketId: number;
  odds: number;
  locked: boolean;
}

const clockSeconds = (c: string | null | undefined): number | null => {
  if (typeof c !== 'string') return null;
  const m = /^(\d+):(\d{2})$/.exec(c);
  return m === null ? null : Number(m[1]) * 60 + Number(m[2]);
};

export function observeInPlay(sport: string, messages: readonly FeedMessage[], maxOdds: number): InPlayReport {
  const sels = new Map<number, Sel>();
  const markets = new Map<number, { key: string; sels: number[] }>();
  const r: InPlayReport = {
    liveMs: 0,
    noOpenMs: 0,
    noMainMs: 0,
    mainLifeMs: 0,
    mainLockedInLifeMs: 0,
    longestNoOpenMs: 0,
    longestLockedMs: 0,
    openDecided: [],
    atBounds: [],
    clockBack: [],
  };
  let live = false;
  let lastTs = 0;
  let stretch = 0;
  let lockedStretch = 0;
  /** Live time since the main market was last seen open, and how much of it had none open. */
  let sinceMainOpen = 0;
  let score: ScoreMessage | null = null;
  let lastClock: { period: string | null; s: number } | null = null;
  const note = (list: string[], s: string): void => {
    if (list.length < 5) list.push(s);
  };
  const isOpen = (mid: number): boolean => markets.get(mid)!.sels.some((id) => !sels.get(id)!.locked);
  const stateText = (): string =>
    score === null ? '' : ` at ${score.score.home}-${score.score.away} ${String(score.period)} ${String(score.clock)}`;

  const rowSum = (period: string | null, side: 'home' | 'away' | null): number | null => {
    if (score === null || !COUNTED.has(sport)) return null;
    const rows = (score.period_scores ?? []).filter((p) => p.period !== 'PEN' && p.period !== 'SO');
    const pick = period === null ? rows : rows.filter((p) => p.period.toLowerCase() === period);
    if (period !== null && pick.length === 0) return null;
    let t = 0;
    for (const p of pick) t += side === null ? p.home + p.away : p[side];
    return t;
  };
  /** Whether the period of a key is over: a later period has a score row. */
  const periodOver = (period: string): boolean => {
    if (score === null) return false;
    const rows = (score.period_scores ?? []).map((p) => p.period.toLowerCase());
    const i = rows.indexOf(period);
    if (i >= 0) return i < rows.length - 1;
    if (period === '1h' && sport === 'basketball') return rows.includes('q3');
    return false;
  };

  const audit = (): void => {
    for (const [mid, m] of markets) {
      if (!isOpen(mid)) continue;
      for (const id of m.sels) {
        const s = sels.get(id)!;
        if (!s.locked && (s.odds <= 1.01 || s.odds >= maxOdds)) note(r.atBounds, `${m.key} at ${s.odds}${stateText()}`);
      }
      const [head, lineText] = m.key.split(':');
      const [family, period] = head!.split('@') as [string, string | undefined];
      if (period !== undefined && periodOver(period)) {
        note(r.openDecided, `${m.key} open after its period${stateText()}`);
        continue;
      }
      if (lineText === undefined) continue;
      const line = Number(lineText);
      const side =
        family === 'totals'
          ? null
          : family === 'team_totals_home'
            ? 'home'
            : family === 'team_totals_away'
              ? 'away'
              : undefined;
      if (side === undefined) continue;
      const t = rowSum(period ?? null, side);
      if (t !== null && t > line) note(r.openDecided, `${m.key} open with ${t} counted${stateText()}`);
    }
  };

  for (const msg of messages) {
    const ts = Date.parse(msg.ts ?? '');
    if (live && Number.isFinite(ts) && ts > lastTs) {
      const dt = ts - lastTs;
      r.liveMs += dt;
      const mids = [...markets.keys()];
      const anyOpen = mids.some(isOpen);
      if (!anyOpen) {
        r.noOpenMs += dt;
        stretch += dt;
        r.longestNoOpenMs = Math.max(r.longestNoOpenMs, stretch);
      } else stretch = 0;
      if (!anyOpen && mids.length > 0) {
        lockedStretch += dt;
        r.longestLockedMs = Math.max(r.longestLockedMs, lockedStretch);
      } else lockedStretch = 0;
      const mainOpen = mids.some((mid) => MAIN_FAMILIES.has(markets.get(mid)!.key) && isOpen(mid));
      if (!mainOpen) {
        r.noMainMs += dt;
        sinceMainOpen += dt;
      } else {
        r.mainLockedInLifeMs += sinceMainOpen;
        r.mainLifeMs = r.liveMs;
        sinceMainOpen = 0;
      }
    }
    if (Number.isFinite(ts)) lastTs = ts;
    switch (msg.type) {
      case 'markets':
        for (const m of msg.markets) {
          markets.set(m.market_id, { key: m.key, sels: m.outcomes.map((o) => o.selection_id) });
          for (const o of m.outcomes)
            sels.set(o.selection_id, { marketId: m.market_id, odds: o.odds, locked: o.is_locked === true });
        }
        break;
      case 'odds':
        for (const c of msg.changes) {
          const s = sels.get(c.selection_id);
          if (s === undefined) continue;
          if (c.odds !== undefined) s.odds = c.odds;
          if (c.is_locked !== undefined) s.locked = c.is_locked;
        }
        break;
      case 'remove_markets':
        for (const mid of msg.all === true ? [...markets.keys()] : (msg.market_ids ?? [])) {
          for (const id of markets.get(mid)?.sels ?? []) sels.delete(id);
          markets.delete(mid);
        }
        break;
      case 'status':
        if (msg.status === 'live') live = true;
        break;
      case 'result':
        live = false;
        break;
      case 'score': {
        score = msg;
        const s = clockSeconds(msg.clock);
        if (
          s !== null &&
          lastClock !== null &&
          lastClock.period === msg.period &&
          sport === 'soccer' &&
          s < lastClock.s
        )
          note(r.clockBack, `${String(msg.period)} ${String(msg.clock)} after ${lastClock.s}s`);
        lastClock = s === null ? null : { period: msg.period ?? null, s };
        break;
      }
      default:
        break;
    }
    if (live) audit();
  }
  return r;
}

export interface LinesReport {
  /** Live time with at least one open selection. */
  openMs: number;
  /** Of it, time with no open full-game totals line, and with no open full-game handicap line. */
  noTotalsMs: number;
  noHandicapMs: number;
  /** Two-way line markets offered on one side only (first few, with the score). */
  oneSided: string[];
}

/** Follows a game's totals and handicap lines as a client would: are lines offered around the score all game? */
export function observeLines(messages: readonly FeedMessage[]): LinesReport {
  const sels = new Map<number, { marketId: number; locked: boolean; odds: number }>();
  const keys = new Map<number, string>();
  const gone = new Set<number>();
  const r: LinesReport = { openMs: 0, noTotalsMs: 0, noHandicapMs: 0, oneSided: [] };
  let live = false;
  let last: number | null = null;
  let score = '';
  const look = (): { open: boolean; totals: boolean; handicap: boolean } => {
    const openByMarket = new Map<number, { open: number; all: number }>();
    for (const s of sels.values()) {
      if (gone.has(s.marketId)) continue;
      const c = openByMarket.get(s.marketId) ?? { open: 0, all: 0 };
      c.all++;
      if (!s.locked) c.open++;
      openByMarket.set(s.marketId, c);
    }
    const out = { open: false, totals: false, handicap: false };
    for (const [id, c] of openByMarket) {
      if (c.open === 0) continue;
      out.open = true;
      const key = keys.get(id) ?? '';
      const line = /^(totals|asian_handicap):/.exec(key);
      if (line?.[1] === 'totals') out.totals = true;
      if (line?.[1] === 'asian_handicap') out.handicap = true;
      if (line !== null && c.all === 2 && c.open === 1 && r.oneSided.length < 5) r.oneSided.push(`${key} at ${score}`);
    }
    return out;
  };
  for (const m of messages) {
    const t = Date.parse(m.ts ?? '');
    if (live && last !== null) {
      const s = look();
      if (s.open) {
        r.openMs += t - last;
        if (!s.totals) r.noTotalsMs += t - last;
        if (!s.handicap) r.noHandicapMs += t - last;
      }
    }
    last = t;
    if (m.type === 'markets') {
      for (const d of m.markets) {
        keys.set(d.market_id, d.key);
        gone.delete(d.market_id);
        for (const o of d.outcomes)
          sels.set(o.selection_id, { marketId: d.market_id, locked: o.is_locked === true, odds: o.odds });
      }
    } else if (m.type === 'odds') {
      for (const c of m.changes) {
        const s = sels.get(c.selection_id);
        if (s === undefined) continue;
        if (c.is_locked !== undefined) s.locked = c.is_locked;
        if (c.odds !== undefined) s.odds = c.odds;
      }
    } else if (m.type === 'remove_markets') {
      for (const id of m.all === true ? keys.keys() : (m.market_ids ?? [])) gone.add(id);
    } else if (m.type === 'score') {
      score = `${m.score.home}-${m.score.away} ${m.period} ${m.clock ?? ''}`;
    } else if (m.type === 'status' && m.status === 'live') {
      live = true;
    } else if (m.type === 'result') {
      live = false;
    }
  }
  return r;
}
