// Discrete distributions on integers (scores, margins, totals): Poisson, discretised normal, sums and differences.

/** P(X = min + i) = p[i]; the masses sum to 1 (tails are folded into the end cells). */
export class Dist {
  constructor(
    readonly min: number,
    readonly p: Float64Array,
  ) {}

  get max(): number {
    return this.min + this.p.length - 1;
  }

  at(v: number): number {
    const i = v - this.min;
    return i >= 0 && i < this.p.length ? this.p[i]! : 0;
  }

  /** P(X > v). */
  above(v: number): number {
    let s = 0;
    for (let i = Math.max(0, Math.floor(v) + 1 - this.min); i < this.p.length; i++) s += this.p[i]!;
    return s;
  }

  /** P(X < v). */
  below(v: number): number {
    let s = 0;
    const end = Math.min(this.p.length, Math.ceil(v) - this.min);
    for (let i = 0; i < end; i++) s += this.p[i]!;
    return s;
  }

  mean(): number {
    let m = 0;
    for (let i = 0; i < this.p.length; i++) m += (this.min + i) * this.p[i]!;
    return m;
  }

  /** The same distribution with the mass below `floor` moved onto it (a count never goes down). */
  clampBelow(floor: number): Dist {
    if (this.min >= floor) return this;
    const cut = floor - this.min;
    if (cut >= this.p.length) return Dist.point(floor);
    const p = this.p.slice(cut);
    let below = 0;
    for (let i = 0; i < cut; i++) below += this.p[i]!;
    p[0]! += below;
    return new Dist(floor, p);
  }

  shift(k: number): Dist {
    return new Dist(this.min + k, this.p);
  }

  static point(v: number): Dist {
    return new Dist(v, Float64Array.of(1));
  }
}

/** Poisson(lambda) truncated at `maxK` with the tail folded into the last cell. */
export function poissonDist(lambda: number, maxK?: number): Dist {
  const kMax = maxK ?? Math.max(8, Math.ceil(lambda + 8 * Math.sqrt(lambda + 1)));
  const p = new Float64Array(kMax + 1);
  if (lambda <= 0) {
    p[0] = 1;
    return new Dist(0, p);
  }
  let term = Math.exp(-lambda);
  let sum = 0;
  for (let k = 0; k < kMax; k++) {
    p[k] = term;
    sum += term;
    term *= lambda / (k + 1);
  }
  p[kMax] = Math.max(0, 1 - sum);
  return new Dist(0, p);
}

/**
 * A count with mean `mean` and variance `ratio` × mean (negative binomial; Poisson when ratio ≤ 1),
 * truncated at `maxK` with the tail folded into the last cell. For scores that come in clusters
 * (baseball's runs: a big inning), whose spread a Poisson understates.
 */
export function overdispersedDist(mean: number, ratio: number, maxK: number): Dist {
  if (ratio <= 1 || mean <= 0) return poissonDist(mean, maxK);
  const q = 1 / ratio; // P(success) per trial
  const n = mean / (ratio - 1); // trials (real)
  const p = new Float64Array(maxK + 1);
  let term = Math.pow(q, n);
  let sum = 0;
  for (let k = 0; k < maxK; k++) {
    p[k] = term;
    sum += term;
    term *= ((k + n) / (k + 1)) * (1 - q);
  }
  p[maxK] = Math.max(0, 1 - sum);
  return new Dist(0, p);
}

/** P(Poisson(lambda) > x) for a real x. */
export function poissonAbove(lambda: number, x: number): number {
  const k = Math.floor(x);
  if (k < 0) return 1;
  if (lambda <= 0) return 0;
  let term = Math.exp(-lambda);
  let cdf = term;
  for (let i = 1; i <= k; i++) {
    term *= lambda / i;
    cdf += term;
  }
  return Math.max(0, 1 - cdf);
}

/**
 * P(S > x) for a real x, S a compound Poisson sum with `rates[j - 1]` expected jumps of size j
 * (Panjer's recursion): for scores that come in 1s, 2s and 3s, whose steps a plain count misses.
 */
export function compoundPoissonAbove(rates: readonly number[], x: number): number {
  const k = Math.floor(x);
  if (k < 0) return 1;
  const g = new Float64Array(k + 1);
  g[0] = Math.exp(-rates.reduce((a, r) => a + r, 0));
  let cdf = g[0];
  for (let s = 1; s <= k; s++) {
    let t = 0;
    for (let j = 1; j <= Math.min(s, rates.length); j++) t += j * rates[j - 1]! * g[s - j]!;
    g[s] = t / s;
    cdf += g[s]!;
  }
  return Math.max(0, 1 - cdf);
}

/**
 * P(count > x) for each x, where the count is Poisson with mean `rate` × M and M is drawn from
 * `mixing` ([value, probability] pairs): a player's count over minutes that substitutions make
 * uncertain, wider than one Poisson. One pass of the CDF per value of M serves every x.
 */
export function mixedPoissonAbove(
  rate: number,
  mixing: ReadonlyArray<readonly [number, number]>,
  xs: readonly number[],
): number[] {
  const out = xs.map(() => 0);
  const top = Math.max(-1, ...xs.map((x) => Math.floor(x)));
  const cdf = new Float64Array(Math.max(0, top + 1));
  for (const [m, pm] of mixing) {
    const lambda = rate * m;
    let term = Math.exp(-lambda);
    let sum = 0;
    for (let k = 0; k <= top; k++) {
      sum += term;
      cdf[k] = sum;
      term *= lambda / (k + 1);
    }
    xs.forEach((x, i) => {
      const k = Math.floor(x);
      out[i]! += pm * (k < 0 ? 1 : Math.max(0, 1 - cdf[k]!));
    });
  }
  return out;
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 on erf; error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/** Normal(mean, sd) on the integers (continuity-corrected), over mean ± 6 sd. */
export function normalDist(mean: number, sd: number): Dist {
  if (sd < 1e-6) return Dist.point(Math.round(mean));
  const lo = Math.floor(mean - 6 * sd);
  const hi = Math.ceil(mean + 6 * sd);
  const p = new Float64Array(hi - lo + 1);
  let prev = 0;
  for (let v = lo; v <= hi; v++) {
    const c = v === hi ? 1 : normalCdf((v + 0.5 - mean) / sd);
    p[v - lo] = c - prev;
    prev = c;
  }
  return new Dist(lo, p);
}

/** Distribution of X + Y for independent X, Y. */
export function sumDist(a: Dist, b: Dist): Dist {
  const p = new Float64Array(a.p.length + b.p.length - 1);
  for (let i = 0; i < a.p.length; i++) {
    const pa = a.p[i]!;
    if (pa === 0) continue;
    for (let j = 0; j < b.p.length; j++) p[i + j]! += pa * b.p[j]!;
  }
  return new Dist(a.min + b.min, p);
}

/** Distribution of X - Y for independent X, Y. */
export function diffDist(a: Dist, b: Dist): Dist {
  const p = new Float64Array(a.p.length + b.p.length - 1);
  const bl = b.p.length;
  for (let i = 0; i < a.p.length; i++) {
    const pa = a.p[i]!;
    if (pa === 0) continue;
    for (let j = 0; j < bl; j++) p[i + (bl - 1 - j)]! += pa * b.p[j]!;
  }
  return new Dist(a.min - b.max, p);
}

/** A joint distribution of two independent final counts (home, away): the correct-score grid. */
export class Grid {
  constructor(
    readonly home: Dist,
    readonly away: Dist,
  ) {}

  cell(h: number, a: number): number {
    return this.home.at(h) * this.away.at(a);
  }

  margin(): Dist {
    return diffDist(this.home, this.away);
  }

  total(): Dist {
    return sumDist(this.home, this.away);
  }
}
