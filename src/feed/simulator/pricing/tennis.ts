// Tennis probabilities from serve: game, tie-break, set (with the distribution of games) and match, by exact recursion.

export interface ServeProbs {
  /** P(home wins a point on home's serve). */
  home: number;
  /** P(away wins a point on away's serve). */
  away: number;
}

const holdCache = new Map<number, number>();

/** P(server wins the game) from points (s, r) of server and receiver. */
export function gameWin(p: number, s: number, r: number): number {
  if (s === 0 && r === 0) {
    let hold = holdCache.get(p);
    if (hold === undefined) {
      hold = gameWinFrom(p, 0, 0);
      if (holdCache.size > 10_000) holdCache.clear();
      holdCache.set(p, hold);
    }
    return hold;
  }
  return gameWinFrom(p, s, r);
}

function gameWinFrom(p: number, s: number, r: number): number {
  if (s >= 4 && s - r >= 2) return 1;
  if (r >= 4 && r - s >= 2) return 0;
  if (s >= 3 && r >= 3) {
    const deuce = (p * p) / (p * p + (1 - p) * (1 - p));
    if (s === r) return deuce;
    return s > r ? p + (1 - p) * deuce : p * deuce;
  }
  return p * gameWinFrom(p, s + 1, r) + (1 - p) * gameWinFrom(p, s, r + 1);
}

/** Server of tie-break point n (0-based): the first server, then two each. */
export function tiebreakServerIsFirst(n: number): boolean {
  return n === 0 || Math.floor((n - 1) / 2) % 2 === 1;
}

/** A tie-break from 0-0 by serve and first server: every set's forward pass reaches 6-6 with the same few serves. */
const freshTiebreakCache = new Map<number, Map<number, [number, number]>>();

function freshTiebreakWin(sp: ServeProbs, homeFirst: boolean): number {
  let byAway = freshTiebreakCache.get(sp.home);
  if (byAway === undefined) {
    if (freshTiebreakCache.size > 5_000) freshTiebreakCache.clear();
    freshTiebreakCache.set(sp.home, (byAway = new Map()));
  }
  let both = byAway.get(sp.away);
  if (both === undefined) {
    both = [tiebreakWin(sp, 0, 0, true), tiebreakWin(sp, 0, 0, false)];
    byAway.set(sp.away, both);
  }
  return both[homeFirst ? 0 : 1];
}

/** P(home wins a tie-break to `target`) from (h, a) points, `homeFirst`: home served its first point. */
export function tiebreakWin(sp: ServeProbs, h: number, a: number, homeFirst: boolean, target = 7): number {
  const memo = new Map<number, number>();
  const go = (x: number, y: number): number => {
    if (x >= target && x - y >= 2) return 1;
    if (y >= target && y - x >= 2) return 0;
    const n = x + y;
    if (x >= target - 1 && y >= target - 1 && x === y && n % 2 === 0) {
      const win = sp.home * (1 - sp.away);
      const lose = (1 - sp.home) * sp.away;
      return win + lose > 0 ? win / (win + lose) : 0.5;
    }
    const k = x * 100 + y;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const homeServes = tiebreakServerIsFirst(n) === homeFirst;
    const p = homeServes ? sp.home : 1 - sp.away;
    const v = p * go(x + 1, y) + (1 - p) * go(x, y + 1);
    memo.set(k, v);
    return v;
  };
  return go(h, a);
}

/** Final set scores (games) and their probabilities. */
export type SetFinals = Map<string, { home: number; away: number; p: number }>;

export interface SetState {
  games: [number, number];
  homeServing: boolean;
  /** Points of the game in progress (or tie-break points). */
  points: [number, number];
  tiebreak: boolean;
  /** In a tie-break: home served its first point. */
  tbHomeFirst: boolean;
}

function addFinal(out: SetFinals, h: number, a: number, p: number): void {
  if (p <= 0) return;
  const k = `${h}-${a}`;
  const e = out.get(k);
  if (e) e.p += p;
  else out.set(k, { home: h, away: a, p });
}

function setOver(h: number, a: number): boolean {
  return (h >= 6 && h - a >= 2) || (a >= 6 && a - h >= 2) || h === 7 || a === 7;
}

/** Distribution of the final games of a set from a state: forward over game boundaries (h, a). */
export function setFinals(sp: ServeProbs, st: SetState): SetFinals {
  const out: SetFinals = new Map();
  const [h0, a0] = st.games;
  if (setOver(h0, a0)) {
    addFinal(out, h0, a0, 1);
    return out;
  }
  if (st.tiebreak) {
    const w = tiebreakWin(sp, st.points[0], st.points[1], st.tbHomeFirst);
    addFinal(out, 7, 6, w);
    addFinal(out, 6, 7, 1 - w);
    return out;
  }
  const holdHome = gameWin(sp.home, 0, 0);
  const holdAway = gameWin(sp.away, 0, 0);
  // mass[h][a] at game boundaries; who serves follows from the games played since the state.
  const mass: number[][] = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const [ph, pa] = st.points;
  const first = st.homeServing ? gameWin(sp.home, ph, pa) : 1 - gameWin(sp.away, pa, ph);
  mass[h0 + 1]![a0] = first;
  mass[h0]![a0 + 1] = 1 - first;
  for (let total = h0 + a0 + 1; total <= 12; total++) {
    for (let h = 0; h <= Math.min(7, total); h++) {
      const a = total - h;
      if (a < 0 || a > 7) continue;
      const q = mass[h]![a]!;
      if (q === 0) continue;
      if (setOver(h, a)) {
        addFinal(out, h, a, q);
        continue;
      }
      const homeServing = ((total - (h0 + a0)) % 2 === 0) === st.homeServing;
      if (h === 6 && a === 6) {
        const w = freshTiebreakWin(sp, homeServing);
        addFinal(out, 7, 6, q * w);
        addFinal(out, 6, 7, q * (1 - w));
        continue;
      }
      const pHome = homeServing ? holdHome : 1 - holdAway;
      const up = mass[h + 1]!;
      const same = mass[h]!;
      up[a] = (up[a] ?? 0) + q * pHome;
      same[a + 1] = (same[a + 1] ?? 0) + q * (1 - pHome);
    }
  }
  return out;
}

const freshCache = new Map<string, SetFinals>();

/** A set from its start, either player serving first (averaged): the same all match long for the same serve. */
function freshSetFinals(sp: ServeProbs): SetFinals {
  const k = `${sp.home}/${sp.away}`;
  let fresh = freshCache.get(k);
  if (fresh !== undefined) return fresh;
  fresh = new Map();
  for (const homeServing of [true, false]) {
    for (const f of setFinals(sp, {
      games: [0, 0],
      homeServing,
      points: [0, 0],
      tiebreak: false,
      tbHomeFirst: homeServing,
    }).values()) {
      addFinal(fresh, f.home, f.away, f.p / 2);
    }
  }
  if (freshCache.size > 5_000) freshCache.clear();
  freshCache.set(k, fresh);
  return fresh;
}

export interface MatchOutlook {
  pHome: number;
  /** Final set score (sets) → probability. */
  sets: Map<string, number>;
  /** Distribution of total games in the match (index = games). */
  totalGames: Float64Array;
  /** Distribution of home games minus away games, offset by `marginOffset`. */
  gameMargin: Float64Array;
  marginOffset: number;
}

/**
 * The match from the current set state: sets won so far, games of finished sets, and the set in
 * progress. Later sets start with either server (averaged).
 */
export function matchOutlook(
  sp: ServeProbs,
  bestOf: number,
  setsWon: [number, number],
  gamesSoFar: [number, number],
  current: SetState,
): MatchOutlook {
  const need = Math.floor(bestOf / 2) + 1;
  if (need > 7) throw new RangeError(`best of ${bestOf}: the set layers count up to 7 sets won`);
  const fresh = freshSetFinals(sp);
  const MAXG = 13 * bestOf + 1;
  const OFF = MAXG;
  const sets = new Map<string, number>();
  const totalGames = new Float64Array(MAXG + 1);
  const gameMargin = new Float64Array(2 * MAXG + 1);
  if (setsWon[0] >= need || setsWon[1] >= need) {
    sets.set(`${setsWon[0]}-${setsWon[1]}`, 1);
    totalGames[Math.min(MAXG, gamesSoFar[0] + gamesSoFar[1])] = 1;
    gameMargin[gamesSoFar[0] - gamesSoFar[1] + OFF] = 1;
    return { pHome: setsWon[0] >= need ? 1 : 0, sets, totalGames, gameMargin, marginOffset: OFF };
  }
  // Forward over set scores; each state carries the marginal distributions of total games and of
  // the game margin (only the marginals are priced).
  interface Layer {
    total: Float64Array;
    margin: Float64Array;
  }
  // By sets won (sh × 8 + sa; a side wins 4 at most), and the order they were made in (the sums below
  // keep it). Texts such as "2-1" as keys cost more than the sums at every price.
  const layers: Array<Layer | undefined> = [];
  const made: number[] = [];
  const layerOf = (sh: number, sa: number): Layer => {
    const k = sh * 8 + sa;
    let l = layers[k];
    if (l === undefined) {
      l = { total: new Float64Array(MAXG + 1), margin: new Float64Array(2 * MAXG + 1) };
      layers[k] = l;
      made.push(k);
    }
    return l;
  };
  let pHome = 0;
  const start = layerOf(setsWon[0], setsWon[1]);
  start.total[Math.min(MAXG, gamesSoFar[0] + gamesSoFar[1])] = 1;
  start.margin[gamesSoFar[0] - gamesSoFar[1] + OFF] = 1;
  const currentFinals = [...setFinals(sp, current).values()];
  const freshFinals = [...fresh.values()];
  for (let played = setsWon[0] + setsWon[1]; played < bestOf; played++) {
    for (let sh = 0; sh <= played; sh++) {
      const sa = played - sh;
      if (sh >= need || sa >= need) continue;
      const l = layers[sh * 8 + sa];
      if (l === undefined) continue;
      const finals = sh === setsWon[0] && sa === setsWon[1] ? currentFinals : freshFinals;
      for (const f of finals) {
        const nh = sh + (f.home > f.away ? 1 : 0);
        const na = sa + (f.away > f.home ? 1 : 0);
        const next = layerOf(nh, na);
        const games = f.home + f.away;
        const diff = f.home - f.away;
        for (let g = 0; g <= MAXG; g++) {
          const q = l.total[g]!;
          if (q !== 0) next.total[Math.min(MAXG, g + games)]! += q * f.p;
        }
        for (let d = 0; d < l.margin.length; d++) {
          const q = l.margin[d]!;
          if (q !== 0) next.margin[Math.max(0, Math.min(2 * MAXG, d + diff))]! += q * f.p;
        }
      }
    }
  }
  for (const k of made) {
    const l = layers[k]!;
    const sh = Math.floor(k / 8);
    const sa = k % 8;
    if (sh < need && sa < need) continue;
    let mass = 0;
    for (let g = 0; g <= MAXG; g++) {
      mass += l.total[g]!;
      totalGames[g]! += l.total[g]!;
    }
    for (let d = 0; d < l.margin.length; d++) gameMargin[d]! += l.margin[d]!;
    sets.set(`${sh}-${sa}`, mass);
    if (sh >= need) pHome += mass;
  }
  return { pHome, sets, totalGames, gameMargin, marginOffset: OFF };
}

/** P(home wins a set from the state). */
export function setWin(sp: ServeProbs, st: SetState): number {
  let p = 0;
  for (const f of setFinals(sp, st).values()) if (f.home > f.away) p += f.p;
  return p;
}
