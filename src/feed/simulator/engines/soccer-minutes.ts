// Soccer: how many minutes an outfielder still plays, as a distribution, from the engine's clock and substitution constants.

/** Chance of a substitution per side in a minute of the second half after its 10th (the engine's). */
export const SUB_CHANCE_2H = 0.09;
/** Second-half minutes before substitutions start. */
export const SUB_FROM_MINUTE = 10;
/** Time added to each half, drawn uniformly between these (inclusive) when its 45 (extra time: 15) minutes are up. */
export const STOPPAGE_1H: readonly [number, number] = [1, 4];
export const STOPPAGE_2H: readonly [number, number] = [2, 7];
export const STOPPAGE_ET: readonly [number, number] = [0, 2];
/** Chance of a substitution per side in a minute of extra time. */
export const SUB_CHANCE_ET = 0.15;

/** Minutes still to be played → probability. */
export type MinutesDist = ReadonlyArray<readonly [number, number]>;

/** Where the clock stands and what a side can still change. */
export interface ClockState {
  phase: string;
  /** Minutes played in the current half (stoppage included). */
  halfMinute: number;
  /** Time added to the current half, once its regulation minutes are played. */
  stoppage: number | null;
  subsLeft: number;
  /** Outfielders on the pitch: the one taken off is one of these, at random. */
  outfield: number;
  /** Chance of extra time after the second half (a knockout game level then), to two decimals. */
  extraTime: number;
}

/** Chance a half of `len` minutes with time added drawn in `added` ends after minute `t`, having reached it. */
function endChance(t: number, len: number, added: readonly [number, number]): number {
  const j = t - len;
  const [lo, hi] = added;
  return j < lo ? 0 : 1 / (hi - j + 1);
}

/** One minute still to be played: the chance of a substitution after it, and that the game ends after it. */
interface Minute {
  sub: number;
  end: number;
}

/** Mean time added to a half of extra time. */
export const MEAN_STOPPAGE_ET = (STOPPAGE_ET[0] + STOPPAGE_ET[1]) / 2;

/**
 * The minutes of extra time from after minute `from` of its first half (`second`: of its second),
 * the half's time added `stoppage` once known. The first half's time added, not yet known, is
 * taken at its mean: it ends nothing.
 */
function extraTime(out: Minute[], second: boolean, from: number, stoppage: number | null): void {
  if (!second) {
    for (let t = from + 1; t <= 15 + (stoppage ?? MEAN_STOPPAGE_ET); t++) out.push({ sub: SUB_CHANCE_ET, end: 0 });
    extraTime(out, true, 0, null);
    return;
  }
  const last = 15 + (stoppage ?? STOPPAGE_ET[1]);
  for (let t = from + 1; t <= last; t++)
    out.push({ sub: SUB_CHANCE_ET, end: stoppage !== null ? (t >= last ? 1 : 0) : endChance(t, 15, STOPPAGE_ET) });
}

/**
 * The minutes still to be played, the first half's time added being `added1` and the second's
 * `added2` where not yet known: extra time follows the second half with chance `s.extraTime`.
 */
function schedule(s: ClockState, added1: number, added2: number): Minute[] {
  const out: Minute[] = [];
  const second = (from: number, stoppage: number): void => {
    for (let t = from + 1; t <= 45 + stoppage; t++)
      out.push({ sub: t > SUB_FROM_MINUTE ? SUB_CHANCE_2H : 0, end: t === 45 + stoppage ? 1 - s.extraTime : 0 });
    if (s.extraTime > 0) extraTime(out, false, 0, null);
  };
  const known = s.stoppage !== null;
  switch (s.phase) {
    case '1H': {
      const left = 45 + (known ? s.stoppage! : added1) - s.halfMinute;
      for (let t = 0; t < left; t++) out.push({ sub: 0, end: 0 });
      second(0, added2);
      break;
    }
    case 'HT':
      second(0, added2);
      break;
    case '2H':
      second(s.halfMinute, known ? s.stoppage! : added2);
      break;
    case 'ET_BREAK':
      extraTime(out, false, 0, null);
      break;
    case 'ET1':
      extraTime(out, false, s.halfMinute, s.stoppage);
      break;
    case 'ET_HT':
      extraTime(out, true, 0, null);
      break;
    case 'ET2':
      extraTime(out, true, s.halfMinute, s.stoppage);
      break;
    default:
      break;
  }
  return out;
}

/**
 * Who a bench player is: the share of the outfielders on the pitch of his line (a substitution takes
 * one of them off and brings on one of his line), how many of his line are on the bench (they come
 * on in an order drawn at random: he is the first, second... with equal chances), and his chance to
 * come on at a substitution of another line whose bench is empty.
 */
export interface BenchSpot {
  lineShare: number;
  lineBench: number;
  other: number;
}

/**
 * A player's minutes (index: minutes → probability) over a schedule: on the pitch now (`bench`
 * null) or on the bench, `sentOff` his chance a minute to be sent off once on. A substituted
 * player's last minute counts: the engine substitutes after the minute's play.
 */
function play(minutes: readonly Minute[], s: ClockState, bench: BenchSpot | null, sentOff: number): number[] {
  const out = new Array<number>(minutes.length + 1).fill(0);
  const k0 = s.subsLeft;
  const width = k0 + 1;
  const lines = bench === null ? 0 : bench.lineBench + 1;
  // On the pitch: mass by (minute he came on, subs left), flat. Waiting: by (subs left, his line's subs made).
  const on = new Float64Array((minutes.length + 1) * width);
  const entries: number[] = [];
  let waiting = new Float64Array(width * Math.max(1, lines));
  let next = new Float64Array(waiting.length);
  if (bench === null) {
    on[k0] = 1;
    entries.push(0);
  } else waiting[k0 * lines] = 1;
  const leave = 1 / s.outfield;
  for (let i = 0; i < minutes.length; i++) {
    const { sub, end } = minutes[i]!;
    const t = i + 1;
    for (const entry of entries) {
      const row = entry * width;
      let gone = 0;
      for (let k = 0; k < width; k++) {
        const stay = on[row + k]! * (1 - sentOff);
        gone += on[row + k]! * sentOff;
        const q = k > 0 ? sub : 0;
        gone += stay * q * leave;
        if (k > 0) on[row + k - 1]! += stay * q * (1 - leave);
        on[row + k] = stay * (1 - q);
      }
      out[t - entry]! += gone;
    }
    if (bench !== null) {
      next.fill(0);
      let cameOn = false;
      for (let k = 0; k < width; k++)
        for (let j = 0; j < lines; j++) {
          const m = waiting[k * lines + j]!;
          if (m === 0) continue;
          const q = k > 0 ? sub : 0;
          next[k * lines + j]! += m * (1 - q);
          if (q === 0) continue;
          // A substitution of his line: he is the next of its bench with chance 1 / (those left).
          const mine = m * q * bench.lineShare;
          const him = j < bench.lineBench ? mine / (bench.lineBench - j) : 0;
          const fromOther = m * q * (1 - bench.lineShare) * bench.other;
          on[t * width + k - 1]! += him + fromOther;
          cameOn ||= him + fromOther > 0;
          if (j < bench.lineBench) next[(k - 1) * lines + j + 1]! += mine - him;
          next[(k - 1) * lines + j]! += m * q * (1 - bench.lineShare) - fromOther;
        }
      if (cameOn) entries.push(t);
      [waiting, next] = [next, waiting];
    }
    if (end === 0) continue;
    for (const entry of entries) {
      const row = entry * width;
      let ended = 0;
      for (let k = 0; k < width; k++) {
        ended += on[row + k]! * end;
        on[row + k]! *= 1 - end;
      }
      out[t - entry]! += ended;
    }
    let still = 0;
    for (let x = 0; x < waiting.length; x++) {
      still += waiting[x]! * end;
      waiting[x]! *= 1 - end;
    }
    out[0]! += still;
  }
  return out;
}

/** Distributions already worked out, by clock and bench spot: most states recur from game to game. */
const memo = new Map<string, MinutesDist>();
const MEMO_MAX = 20_000;

/**
 * Minutes an outfielder still plays, extra time included, as substitutions and the end of the game
 * take them: on the pitch now (`bench` null, sendings-off left to `andSentOff`), or on the bench,
 * sent off at `benchRed` a minute. Each time added not yet drawn takes each of its values in turn.
 */
export function minutesAhead(s: ClockState, bench: BenchSpot | null, benchRed: number): MinutesDist {
  const key = JSON.stringify([s, bench, benchRed]);
  const known = memo.get(key);
  if (known !== undefined) return known;
  // Nothing but minutes in the first half (no substitution): its time added, not yet drawn, only
  // shifts a player on the pitch by each of its values in turn, and changes nothing for the bench.
  const [lo, hi] = STOPPAGE_1H;
  const shifts = s.phase === '1H' && s.stoppage === null && bench === null ? hi - lo + 1 : 1;
  const seconds =
    s.phase === '1H' || s.phase === 'HT' || (s.phase === '2H' && s.stoppage === null)
      ? Array.from({ length: STOPPAGE_2H[1] - STOPPAGE_2H[0] + 1 }, (_, i) => STOPPAGE_2H[0] + i)
      : [0];
  const total = new Map<number, number>();
  const weight = 1 / (shifts * seconds.length);
  for (const a2 of seconds)
    play(schedule(s, lo, a2), s, bench, bench === null ? 0 : benchRed).forEach((p, m) => {
      if (p <= 1e-12) return;
      for (let x = 0; x < shifts; x++) total.set(m + x, (total.get(m + x) ?? 0) + p * weight);
    });
  const out = [...total].sort((a, b) => a[0] - b[0]);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, out.length > 0 ? out : [[0, 1]]);
  return memo.get(key)!;
}

/**
 * A player's minutes when he may also be sent off, `sentOff(n)` the chance he is after his n-th
 * minute: independent of substitutions and the clock, so the chance he plays past n minutes is the
 * product of the two.
 */
export function andSentOff(d: MinutesDist, sentOff: (n: number) => number): MinutesDist {
  const top = d.length > 0 ? d[d.length - 1]![0] : 0;
  const pmf = new Float64Array(top + 1);
  for (const [m, p] of d) pmf[m] = p;
  const out: Array<[number, number]> = [];
  let clock = 1 - pmf[0]!; // P(the clock and substitutions let him play past n minutes)
  let kept = 1; // P(not sent off in his first n minutes)
  let past = clock; // P(he plays past n minutes)
  if (pmf[0]! > 1e-9) out.push([0, pmf[0]!]);
  for (let n = 1; n <= top; n++) {
    clock -= pmf[n]!;
    kept *= 1 - sentOff(n);
    const next = Math.max(0, clock) * kept;
    if (past - next > 1e-9) out.push([n, past - next]);
    past = next;
  }
  return out;
}

/**
 * The same distribution on fewer points: minutes in blocks of `width`, each at its mean. A count's
 * spread within a block is below a thousandth of its spread over the game, and pricing a prop over
 * 100 points for every line of every player made the book 2.5 times slower.
 */
export function coarse(d: MinutesDist, width = 3): MinutesDist {
  const blocks = new Map<number, [number, number]>();
  for (const [m, p] of d) {
    const b = blocks.get(Math.floor(m / width)) ?? [0, 0];
    b[0] += m * p;
    b[1] += p;
    blocks.set(Math.floor(m / width), b);
  }
  return [...blocks.values()].filter(([, p]) => p > 0).map(([mp, p]) => [mp / p, p] as const);
}
