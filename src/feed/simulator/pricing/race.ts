// Races to N (sets, legs, frames, maps, rally points…): win probability and the distribution of final scores.

export interface RaceRules {
  /** Points (units) needed to win. */
  target: number;
  /** Must win by two once both reach target - 1 (volleyball, table tennis, Valorant). */
  winByTwo: boolean;
  /** Past this many units per side the race is treated as a coin weighted by p (keeps the DP finite). */
  cap?: number;
}

/** P(home wins the race) from (a, b) with a constant per-unit probability p. */
export function raceWin(a: number, b: number, p: number, rules: RaceRules): number {
  const { target, winByTwo } = rules;
  if (!winByTwo) {
    if (a >= target) return 1;
    if (b >= target) return 0;
  } else {
    if (a >= target && a - b >= 2) return 1;
    if (b >= target && b - a >= 2) return 0;
    if (a >= target - 1 && b >= target - 1) {
      const q = p * p;
      const r = (1 - p) * (1 - p);
      const fromTie = q + r > 0 ? q / (q + r) : 0.5;
      const d = a - b;
      if (d === 0) return fromTie;
      if (d === 1) return p + (1 - p) * fromTie;
      if (d === -1) return p * fromTie;
    }
  }
  const memo = new Map<number, number>();
  const go = (x: number, y: number): number => {
    if (!winByTwo) {
      if (x >= target) return 1;
      if (y >= target) return 0;
    } else if (x >= target - 1 && y >= target - 1) {
      return raceWin(x, y, p, rules);
    } else {
      if (x >= target) return 1;
      if (y >= target) return 0;
    }
    const k = x * 1000 + y;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const v = p * go(x + 1, y) + (1 - p) * go(x, y + 1);
    memo.set(k, v);
    return v;
  };
  return go(a, b);
}

/** Final (home, away) scores of a race and their probabilities. */
export type FinalScores = Map<string, { home: number; away: number; p: number }>;

/** Distribution of the final score of a race from (a, b); win-by-two races are cut at `cap`. */
export function raceFinals(a: number, b: number, p: number, rules: RaceRules): FinalScores {
  const { target, winByTwo } = rules;
  const cap = rules.cap ?? target + 6;
  const out: FinalScores = new Map();
  const add = (h: number, w: number, q: number): void => {
    const k = `${h}-${w}`;
    const e = out.get(k);
    if (e) e.p += q;
    else out.set(k, { home: h, away: w, p: q });
  };
  const over = (x: number, y: number): 'home' | 'away' | null => {
    if (winByTwo) {
      if (x >= target && x - y >= 2) return 'home';
      if (y >= target && y - x >= 2) return 'away';
      return null;
    }
    if (x >= target) return 'home';
    if (y >= target) return 'away';
    return null;
  };
  // Forward propagation over states in order of units played.
  let layer = new Map<string, { x: number; y: number; q: number }>([[`${a}-${b}`, { x: a, y: b, q: 1 }]]);
  for (let guard = 0; layer.size > 0 && guard < 400; guard++) {
    const next = new Map<string, { x: number; y: number; q: number }>();
    for (const { x, y, q } of layer.values()) {
      if (over(x, y) !== null) {
        add(x, y, q);
        continue;
      }
      if (winByTwo && x >= cap && y >= cap) {
        // Far into a tie-break: settle the remainder by the from-tie probability.
        const pw = raceWin(x, y, p, { target: x + 2, winByTwo: true });
        add(x + 2, y, q * pw);
        add(x, y + 2, q * (1 - pw));
        continue;
      }
      for (const [nx, ny, nq] of [
        [x + 1, y, q * p],
        [x, y + 1, q * (1 - p)],
      ] as const) {
        if (nq < 1e-12) continue;
        const k = `${nx}-${ny}`;
        const e = next.get(k);
        if (e) e.q += nq;
        else next.set(k, { x: nx, y: ny, q: nq });
      }
    }
    layer = next;
  }
  return out;
}
