// Cricket's runs to come as the engine plays them: legal balls with a wicket chance, runs off the bat, wides before each ball.
import { Dist } from '../pricing/dist.js';

/** How one side bats, ball by ball (the engine's own draws). */
export interface BallModel {
  /** Chance that a legal ball takes a wicket (no runs off it). */
  wicket: number;
  /** Runs off the bat of a legal ball that takes no wicket: values and their chances (summing to 1). */
  runs: readonly number[];
  chances: readonly number[];
  /** Chance that a delivery is a wide (one run, no ball), drawn before every legal ball. */
  wide: number;
}

/** Mixture terms below this weight are skipped (a price moves by less than 1e-12). */
const NEGLIGIBLE = 1e-14;
/** Cells below this mass are dropped at the ends of a distribution (its total error stays far below a price's rounding). */
const TINY = 1e-13;
const MAX_WIDES = 6;

/** Convolution of two mass arrays starting at 0. */
function convolve(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j]! += x * b[j]!;
  }
  return out;
}

/** The distribution trimmed of negligible end cells. */
function trimmed(min: number, p: Float64Array): Dist {
  let lo = 0;
  let hi = p.length - 1;
  while (lo < hi && p[lo]! < TINY) lo++;
  while (hi > lo && p[hi]! < TINY) hi--;
  return new Dist(min + lo, p.slice(lo, hi + 1));
}

/**
 * An innings' runs to come from a state (legal balls left, wickets in hand). The runs and the
 * wickets of a ball are drawn apart, so the runs to come are a mixture over how many balls take
 * no wicket before the innings stops (balls run out, or the last wicket falls): m such balls score
 * the m-fold convolution of one ball's runs, and the j balls that took a wicket bring only the
 * wides bowled before them. Each m goes with one j (balls run out: j = balls − m < wickets in
 * hand; all out: j = wickets in hand), so a price is a sum over at most 121 terms of powers built
 * once per way of batting (about 40k cells for twenty overs).
 */
export class InningsModel {
  /** powers[m]: runs off m balls that take no wicket, with the wides bowled before them. */
  private readonly powers: Dist[] = [];
  /** widesBefore[j]: the wides bowled before j balls (those that took a wicket). */
  private readonly widesBefore: Dist[] = [];
  /** Where the runs land past a target, for the ball (or wide) that reaches it: P(overshoot = o). */
  readonly overshoot: Dist;
  /** The runs of a whole innings from its first ball (asked for at every price of a first innings). */
  private fresh: Dist | undefined;

  constructor(
    private readonly ball: BallModel,
    private readonly maxBalls: number,
  ) {
    const wides = new Float64Array(MAX_WIDES + 1);
    for (let n = 0; n <= MAX_WIDES; n++) wides[n] = ball.wide ** n * (1 - ball.wide);
    wides[MAX_WIDES]! += ball.wide ** (MAX_WIDES + 1);
    let w: Float64Array = Float64Array.of(1);
    for (let j = 0; j <= 10; j++) {
      const d = trimmed(0, w);
      this.widesBefore.push(d);
      w = convolve(d.p, wides);
    }
    const bat = new Float64Array(Math.max(...ball.runs) + 1);
    ball.runs.forEach((r, i) => (bat[r]! += ball.chances[i]!));
    const unit = convolve(bat, wides);
    let cur: Float64Array = Float64Array.of(1);
    let min = 0;
    for (let m = 0; m <= maxBalls; m++) {
      const d = trimmed(min, cur);
      this.powers.push(d);
      cur = convolve(d.p, unit);
      min = d.min;
    }
    // Renewal overshoot: scoring steps of s runs (wides one each) arrive in proportion to their
    // chances, and a target is passed by o runs with chance P(step > o) / E[step].
    const step = new Float64Array(bat.length);
    step[1]! += ball.wide / (1 - ball.wide);
    for (let r = 1; r < bat.length; r++) step[r]! += (1 - ball.wicket) * bat[r]!;
    let mean = 0;
    let all = 0;
    for (let r = 1; r < step.length; r++) {
      mean += r * step[r]!;
      all += step[r]!;
    }
    const o = new Float64Array(step.length - 1);
    let tail = all;
    for (let k = 0; k < o.length; k++) {
      tail -= step[k]!;
      o[k] = tail / mean;
    }
    this.overshoot = new Dist(0, o);
  }

  /**
   * Weights of the mixture: the chance that the innings ends after exactly m balls that take no
   * wicket (index m), from `ballsLeft` legal balls with `inHand` wickets left.
   */
  private weights(b: number, w: number): Float64Array {
    const c = new Float64Array(b + 1);
    const p = this.ball.wicket;
    const q = 1 - p;
    // Balls run out with j < w wickets down: Binomial(b, p).
    let pmf = q ** b;
    for (let j = 0; j < w && j <= b; j++) {
      c[b - j]! += pmf;
      pmf *= ((b - j) / (j + 1)) * (p / q);
    }
    // The last wicket falls on ball k ≥ w: P = C(k−1, w−1) p^w q^(k−w), with k − w balls that took none.
    let nb = p ** w;
    for (let k = w; k <= b; k++) {
      c[k - w]! += nb;
      nb *= (k / (k - w + 1)) * q;
    }
    return c;
  }

  /** Distribution of the runs to come (no target: the innings plays out). */
  toCome(ballsLeft: number, inHand: number): Dist {
    const b = Math.min(this.maxBalls, Math.max(0, ballsLeft));
    const w = Math.min(10, Math.max(0, inHand));
    if (b === 0 || w === 0) return Dist.point(0);
    if (b === this.maxBalls && w === 10) return (this.fresh ??= this.mix(b, w));
    return this.mix(b, w);
  }

  private mix(b: number, w: number): Dist {
    const c = this.weights(b, w);
    const hi = this.powers[b]!.max + this.widesBefore[Math.min(w, b)]!.max;
    const out = new Float64Array(hi + 1);
    const add = (d: Dist, x: number, wides: Dist): void => {
      for (let k = 0; k < wides.p.length; k++) {
        const xk = x * wides.p[k]!;
        for (let i = 0; i < d.p.length; i++) out[d.min + k + i]! += xk * d.p[i]!;
      }
    };
    // All out: every m ≤ b − w goes with the w wicket balls' wides; mix the powers first.
    if (b >= w) {
      let lo = Infinity;
      let top = 0;
      for (let m = 0; m <= b - w; m++)
        if (c[m]! >= NEGLIGIBLE) {
          lo = Math.min(lo, this.powers[m]!.min);
          top = Math.max(top, this.powers[m]!.max);
        }
      if (lo <= top) {
        const a = new Float64Array(top - lo + 1);
        for (let m = 0; m <= b - w; m++) {
          if (c[m]! < NEGLIGIBLE) continue;
          const d = this.powers[m]!;
          for (let i = 0; i < d.p.length; i++) a[d.min - lo + i]! += c[m]! * d.p[i]!;
        }
        add(new Dist(lo, a), 1, this.widesBefore[w]!);
      }
    }
    // Balls run out with j = b − m wickets down.
    for (let m = Math.max(0, b - w + 1); m <= b; m++)
      if (c[m]! >= NEGLIGIBLE) add(this.powers[m]!, c[m]!, this.widesBefore[b - m]!);
    return trimmed(0, out);
  }
}

/**
 * The chasing side's final total: runs to come `x` from `runs` stop at the target, passing it by
 * the overshoot once they reach it (the mass that reaches `target`, spread by `overshoot`).
 */
export function chaseTotal(runs: number, x: Dist, target: number, overshoot: Dist): Dist {
  const need = target - runs;
  const hi = Math.max(runs + x.min, target + overshoot.max);
  const lo = Math.min(runs + x.min, target);
  const p = new Float64Array(hi - lo + 1);
  let reached = 0;
  for (let i = 0; i < x.p.length; i++) {
    const v = x.min + i;
    if (v >= need) reached += x.p[i]!;
    else p[runs + v - lo]! += x.p[i]!;
  }
  for (let o = 0; o < overshoot.p.length; o++) p[target + o - lo]! += reached * overshoot.p[o]!;
  return trimmed(lo, p);
}
