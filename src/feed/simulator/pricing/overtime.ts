// Ice hockey incl. overtime and the shoot-out: a level regulation score becomes a one-goal win (an overtime goal or the shoot-out goal).
import { Dist, type Grid } from './dist.js';

/**
 * The final margin when a level regulation score is settled by overtime or the shoot-out, each
 * counting one goal for its winner: the mass at 0 moves to +1 (home wins, `pHome`) and -1.
 */
export function marginWithDecider(margin: Dist, pHome: number): Dist {
  const level = margin.at(0);
  const min = Math.min(margin.min, -1);
  const max = Math.max(margin.max, 1);
  const p = new Float64Array(max - min + 1);
  for (let v = margin.min; v <= margin.max; v++) if (v !== 0) p[v - min] = margin.at(v);
  p[1 - min]! += level * pHome;
  p[-1 - min]! += level * (1 - pHome);
  return new Dist(min, p);
}

/**
 * Each side's final goals and the total from the regulation grid, one goal more for the winner of a
 * level game (`pHome` that it is home): what `team_totals_*_ot` and `totals_ot` settle on.
 */
export function countsWithDecider(grid: Grid, pHome: number): { home: Dist; away: Dist; total: Dist } {
  const hMin = grid.home.min;
  const aMin = grid.away.min;
  const hMax = grid.home.max;
  const aMax = grid.away.max;
  const home = new Float64Array(hMax - hMin + 2);
  const away = new Float64Array(aMax - aMin + 2);
  const total = new Float64Array(hMax + aMax - hMin - aMin + 2);
  for (let h = hMin; h <= hMax; h++) {
    const ph = grid.home.at(h);
    if (ph === 0) continue;
    for (let a = aMin; a <= aMax; a++) {
      const q = ph * grid.away.at(a);
      if (q === 0) continue;
      if (h !== a) {
        home[h - hMin]! += q;
        away[a - aMin]! += q;
        total[h + a - hMin - aMin]! += q;
        continue;
      }
      // Level: one goal more for the side that wins overtime or the shoot-out.
      home[h + 1 - hMin]! += q * pHome;
      home[h - hMin]! += q * (1 - pHome);
      away[a + 1 - aMin]! += q * (1 - pHome);
      away[a - aMin]! += q * pHome;
      total[h + a + 1 - hMin - aMin]! += q;
    }
  }
  return { home: new Dist(hMin, home), away: new Dist(aMin, away), total: new Dist(hMin + aMin, total) };
}
