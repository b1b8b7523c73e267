// The monthly credit budget: what has been spent this UTC month, what the provider says is left, and how far apart polls must be to last the month.

/** The provider's usage headers (any may be missing). */
export interface QuotaHeaders {
  remaining: number | null;
  used: number | null;
  last: number | null;
}

export function readQuotaHeaders(get: (name: string) => string | null): QuotaHeaders {
  const n = (name: string): number | null => {
    const v = get(name);
    if (v === null || v.trim() === '') return null;
    const x = Number(v);
    return Number.isFinite(x) && x >= 0 ? x : null;
  };
  return { remaining: n('x-requests-remaining'), used: n('x-requests-used'), last: n('x-requests-last') };
}

/** The UTC month a time falls in (`2026-03`): the budget starts again with each. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

function monthEnd(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export class QuotaBudget {
  private month = '';
  private spent = 0;
  /** The provider's last word on what is left of the subscription (its period may differ from ours). */
  providerRemaining: number | null = null;
  providerUsed: number | null = null;
  /** Credits spent since this process started (metrics). */
  spentTotal = 0;

  constructor(readonly monthly: number) {}

  private roll(now: number): void {
    const m = monthOf(now);
    if (m !== this.month) {
      this.month = m;
      this.spent = 0;
    }
  }

  /** Credits spent this UTC month by this process. */
  spentThisMonth(now: number): number {
    this.roll(now);
    return this.spent;
  }

  /**
   * Takes what was stored of this month's spend (an earlier process or leader spent it). The larger
   * of the stored and the counted figure wins: neither ever over-reports what was really spent.
   */
  restore(month: string, spent: number, now: number): void {
    this.roll(now);
    if (month === this.month) this.spent = Math.max(this.spent, spent);
  }

  /** What may still be spent this month: our budget's rest, or less if the provider says so. */
  left(now: number): number {
    this.roll(now);
    const ours = Math.max(0, this.monthly - this.spent);
    return this.providerRemaining === null ? ours : Math.min(ours, this.providerRemaining);
  }

  /** Whether a call costing `cost` keeps within both limits: the budget is never exceeded. */
  allows(cost: number, now: number): boolean {
    return cost <= this.left(now);
  }

  /** Records a call: `charged` is the provider's x-requests-last when given, else our estimate. */
  record(charged: number, headers: QuotaHeaders | null, now: number): void {
    this.roll(now);
    const cost = headers?.last ?? charged;
    this.spent += cost;
    this.spentTotal += cost;
    if (headers?.remaining != null) this.providerRemaining = headers.remaining;
    if (headers?.used != null) this.providerUsed = headers.used;
  }

  /**
   * How long (ms) to wait between cycles costing `cycleCost` each, for `streams` such cycles running
   * side by side, so that what is left lasts to the end of the month at an even pace. Credits not
   * spent (quiet days) raise the pace later.
   */
  evenSpacingMs(cycleCost: number, streams: number, now: number): number {
    const left = this.left(now);
    if (left <= 0) return monthEnd(now) - now;
    const msLeft = monthEnd(now) - now;
    return Math.ceil((cycleCost * streams * msLeft) / left);
  }

  /** Start of the next UTC month (when an exhausted budget comes back). */
  nextMonthAt(now: number): number {
    return monthEnd(now);
  }
}
