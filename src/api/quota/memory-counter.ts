// In-process usage counters: exact (one thread decides), persisted per key per day in batches, reloaded at start.
import { dateInMonth, secondsUntil, utcDay, type Plan, type UtcDay } from '../../domain/quota.js';
import type { Store, UsageDay } from '../../store/store.js';
import {
  periodicFlush,
  SerialWrites,
  usageSnapshot,
  type QuotaDecision,
  type RateDecision,
  type UsageCounter,
  type UsageSnapshot,
} from './counter.js';

const MINUTE = 60_000;
const HOUR_MINUTES = 60;

/** One key's counters for the current month, its per-second window and its last hour by minute. */
class KeyUsage {
  monthCount = 0;
  readonly requests = new Int32Array(31);
  readonly errors = new Int32Array(31);
  /** Days (bit d = day d + 1) changed since the last flush. */
  dirtyDays = 0;
  lastUsedAt = 0;
  lastUsedDirty = false;
  /** Queued for the next flush. */
  queued = false;
  secondAt = -1;
  secondCount = 0;
  readonly minuteOf = new Float64Array(HOUR_MINUTES).fill(-1);
  readonly minuteRequests = new Int32Array(HOUR_MINUTES);
  readonly minuteErrors = new Int32Array(HOUR_MINUTES);

  constructor(
    readonly keyId: string,
    public monthStart: number,
  ) {}

  rowsOf(mask: number): UsageDay[] {
    const rows: UsageDay[] = [];
    for (let d = 0; d < 31; d++) {
      if ((mask & (1 << d)) === 0) continue;
      rows.push({
        keyId: this.keyId,
        date: dateInMonth(this.monthStart, d + 1),
        requests: this.requests[d]!,
        errors: this.errors[d]!,
      });
    }
    return rows;
  }

  /** The minute slot of `now`, cleared when it still holds an older minute. */
  minuteSlot(now: number): number {
    const minute = Math.floor(now / MINUTE);
    const slot = minute % HOUR_MINUTES;
    if (this.minuteOf[slot] !== minute) {
      this.minuteOf[slot] = minute;
      this.minuteRequests[slot] = 0;
      this.minuteErrors[slot] = 0;
    }
    return slot;
  }
}

export interface UsageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface MemoryUsageCounterOptions {
  store: Pick<Store, 'loadUsage' | 'saveUsage'>;
  /** How often counts are written (default 1000 ms; 0: only on flush() and close()). */
  flushIntervalMs?: number;
  log?: UsageLog;
}

const quietLog: UsageLog = { warn: () => undefined, info: () => undefined };

/**
 * Node runs one request's hook at a time, so "check then count" here is atomic and the counts are
 * exact under any concurrency. Day totals are written every second (absolute values, so a retried
 * write is harmless) and on close; a `kill -9` loses at most the last second of counts.
 */
export class MemoryUsageCounter implements UsageCounter {
  private readonly keys = new Map<string, KeyUsage>();
  private dirty: KeyUsage[] = [];
  /** Rows of months that rolled over before they were written. */
  private pendingRows: UsageDay[] = [];
  private day: UtcDay;
  private timer: NodeJS.Timeout | null = null;
  private readonly writes = new SerialWrites();
  private failing = false;
  private readonly log: UsageLog;

  private constructor(
    private readonly opts: MemoryUsageCounterOptions,
    now: number,
  ) {
    this.day = utcDay(now);
    this.log = opts.log ?? quietLog;
  }

  /** Loads this month's counts from the store and starts the periodic flush. */
  static async open(opts: MemoryUsageCounterOptions, now: number): Promise<MemoryUsageCounter> {
    const counter = new MemoryUsageCounter(opts, now);
    const day = counter.day;
    const month = dateInMonth(day.monthStart, 1).slice(0, 8);
    for (const row of await opts.store.loadUsage(`${month}01`)) {
      if (!row.date.startsWith(month)) continue;
      const d = Number(row.date.slice(8, 10)) - 1;
      if (!(d >= 0 && d < 31)) continue;
      const u = counter.entry(row.keyId, day);
      u.requests[d] = row.requests;
      u.errors[d] = row.errors;
      u.monthCount += row.requests;
    }
    counter.timer = periodicFlush(counter, opts.flushIntervalMs ?? 1000);
    return counter;
  }

  private dayFor(now: number): UtcDay {
    const day = this.day;
    if (now >= day.start && now < day.end) return day;
    return (this.day = utcDay(now));
  }

  private entry(keyId: string, day: UtcDay): KeyUsage {
    let u = this.keys.get(keyId);
    if (u === undefined) {
      u = new KeyUsage(keyId, day.monthStart);
      this.keys.set(keyId, u);
    } else if (u.monthStart !== day.monthStart) {
      this.rollMonth(u, day.monthStart);
    }
    return u;
  }

  /** A new month starts from zero; the old month's unwritten days are kept for the next flush. */
  private rollMonth(u: KeyUsage, monthStart: number): void {
    if (u.dirtyDays !== 0) this.pendingRows.push(...u.rowsOf(u.dirtyDays));
    u.monthStart = monthStart;
    u.monthCount = 0;
    u.requests.fill(0);
    u.errors.fill(0);
    u.dirtyDays = 0;
  }

  private queue(u: KeyUsage): void {
    if (u.queued) return;
    u.queued = true;
    this.dirty.push(u);
  }

  private takeSecond(u: KeyUsage, limit: number, now: number): boolean {
    const second = Math.floor(now / 1000);
    if (u.secondAt !== second) {
      u.secondAt = second;
      u.secondCount = 0;
    }
    if (u.secondCount >= limit) return false;
    u.secondCount++;
    return true;
  }

  consume(keyId: string, plan: Plan, now: number): QuotaDecision {
    const day = this.dayFor(now);
    const u = this.entry(keyId, day);
    if (plan.perMonth !== null && u.monthCount >= plan.perMonth) {
      const retryAfterSeconds = secondsUntil(day.monthEnd, now);
      return { ok: false, reason: 'quota', retryAfterSeconds, used: u.monthCount, resetAt: day.monthEnd };
    }
    if (plan.perSecond !== null && !this.takeSecond(u, plan.perSecond, now)) {
      const retryAfterSeconds = secondsUntil((Math.floor(now / 1000) + 1) * 1000, now);
      return { ok: false, reason: 'rate', retryAfterSeconds, used: u.monthCount, resetAt: day.monthEnd };
    }
    const d = day.dayOfMonth - 1;
    u.monthCount++;
    u.requests[d]!++;
    u.dirtyDays |= 1 << d;
    if (now > u.lastUsedAt) u.lastUsedAt = now;
    u.lastUsedDirty = true;
    u.minuteRequests[u.minuteSlot(now)]!++;
    this.queue(u);
    return { ok: true, used: u.monthCount, resetAt: day.monthEnd };
  }

  throttle(keyId: string, plan: Plan, now: number): RateDecision {
    if (plan.perSecond === null) return { ok: true };
    const u = this.entry(keyId, this.dayFor(now));
    if (this.takeSecond(u, plan.perSecond, now)) return { ok: true };
    return { ok: false, retryAfterSeconds: secondsUntil((Math.floor(now / 1000) + 1) * 1000, now) };
  }

  recordError(keyId: string, now: number): void {
    const u = this.keys.get(keyId);
    if (u === undefined) return;
    const day = this.dayFor(now);
    if (u.monthStart !== day.monthStart) this.rollMonth(u, day.monthStart);
    const d = day.dayOfMonth - 1;
    u.errors[d]!++;
    u.dirtyDays |= 1 << d;
    u.minuteErrors[u.minuteSlot(now)]!++;
    this.queue(u);
  }

  snapshot(keyId: string, now: number): UsageSnapshot {
    const day = this.dayFor(now);
    const u = this.keys.get(keyId);
    if (u !== undefined && u.monthStart !== day.monthStart) this.rollMonth(u, day.monthStart);
    let hourRequests = 0;
    let hourErrors = 0;
    if (u !== undefined) {
      const minute = Math.floor(now / MINUTE);
      for (let s = 0; s < HOUR_MINUTES; s++) {
        const m = u.minuteOf[s]!;
        if (m > minute - HOUR_MINUTES && m <= minute) {
          hourRequests += u.minuteRequests[s]!;
          hourErrors += u.minuteErrors[s]!;
        }
      }
    }
    return usageSnapshot(
      day,
      u?.monthCount ?? 0,
      (d) => ({ requests: u?.requests[d - 1] ?? 0, errors: u?.errors[d - 1] ?? 0 }),
      { requests: hourRequests, errors: hourErrors },
    );
  }

  /** Writes every changed day total and last-used time; concurrent calls wait for each other. */
  flush(): Promise<void> {
    return this.writes.run(() => this.writeOnce());
  }

  private async writeOnce(): Promise<void> {
    const queued = this.dirty;
    this.dirty = [];
    const earlier = this.pendingRows;
    this.pendingRows = [];
    const taken: Array<{ u: KeyUsage; monthStart: number; mask: number; rows: UsageDay[]; lastUsed: boolean }> = [];
    const lastUsed: Array<{ keyId: string; at: number }> = [];
    for (const u of queued) {
      u.queued = false;
      const mask = u.dirtyDays;
      u.dirtyDays = 0;
      const used = u.lastUsedDirty;
      u.lastUsedDirty = false;
      if (used) lastUsed.push({ keyId: u.keyId, at: u.lastUsedAt });
      taken.push({ u, monthStart: u.monthStart, mask, rows: u.rowsOf(mask), lastUsed: used });
    }
    if (earlier.length === 0 && taken.length === 0) return;
    // A day may appear twice (rolled over, then captured again): the later values win.
    const byDay = new Map<string, UsageDay>();
    for (const row of earlier) byDay.set(`${row.keyId}\u0000${row.date}`, row);
    for (const t of taken) for (const row of t.rows) byDay.set(`${row.keyId}\u0000${row.date}`, row);
    try {
      await this.opts.store.saveUsage({ days: [...byDay.values()], lastUsed });
      if (this.failing) {
        this.failing = false;
        this.log.info({}, 'usage counters written again');
      }
    } catch (err) {
      // Nothing is lost: the same totals (or newer ones) go with the next flush.
      const restored: UsageDay[] = [...earlier];
      for (const t of taken) {
        if (t.u.monthStart === t.monthStart) {
          t.u.dirtyDays |= t.mask;
          if (t.lastUsed) t.u.lastUsedDirty = true;
          this.queue(t.u);
        } else {
          restored.push(...t.rows);
        }
      }
      this.pendingRows = [...restored, ...this.pendingRows];
      if (!this.failing) {
        this.failing = true;
        this.log.warn({ err }, 'usage counters could not be written; retrying every flush');
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    try {
      await this.flush();
    } catch {
      // Logged by the flush; the store is going away.
    }
  }
}
