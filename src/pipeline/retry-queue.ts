// A producer's retry queue: messages refused for a transient reason are sent again with backoff, in order per key, in bounded memory.
import { isRetryable, type ApplyOutcome } from './outcome.js';

/** What became of one message sent: taken, refused for good, or refused for now (send it again later). */
export type Verdict = 'accepted' | 'rejected' | 'retry';

/** The verdict of a pipeline outcome. */
export function verdictOf(o: ApplyOutcome): Verdict {
  return o.ok ? 'accepted' : isRetryable(o) ? 'retry' : 'rejected';
}

export interface RetryClock {
  now(): number;
  /** Waits (a producer held back while too much waits to be sent again). */
  sleep(ms: number): Promise<void>;
}

export interface Backoff {
  /** Wait before the first retry. */
  initialMs: number;
  /** Longest wait between two retries. */
  maxMs: number;
  /** Growth of the wait after a retry that made no progress. */
  factor: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 15_000, factor: 2 };

export interface RetryQueueOptions<T> {
  /**
   * Sends messages in order and says what became of each. Like Pipeline.applyAll, it must refuse
   * (`retry`) every later message of a key once it refused one of that key for retry.
   */
  deliver(items: T[]): Promise<Verdict[]>;
  /** Messages of one key keep their order: one held back holds back every later one of its key. */
  keyOf(item: T): string;
  clock: RetryClock;
  backoff?: Backoff;
  /** Messages held at most: beyond it, submit() waits for retries to make room (backpressure). */
  maxHeld: number;
  /** Attempts per message before it is given up (default: never given up). */
  maxAttempts?: number;
  /** A message given up after maxAttempts. */
  onGiveUp?(item: T, attempts: number): void;
  /** Runs retries on its own when nothing is submitted for a while (default: only on submit/retryDue). */
  timer?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
  /** The number of held messages went from 0 to some, or back to 0 (for the log). */
  onHeldChange?(held: number, counts: RetryCounts): void;
}

/** The wall clock and real timers. */
export const SYSTEM_RETRY_CLOCK: RetryClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
export const SYSTEM_RETRY_TIMER = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms).unref(),
  clear: (handle: unknown): void => clearTimeout(handle as NodeJS.Timeout),
};

export interface RetryCounts {
  /** Messages refused for retry at their first delivery. */
  refused: number;
  /** Messages held back, never delivered, because an earlier one of their key was. */
  queuedBehind: number;
  /** Deliveries of held messages (each retry of each message). */
  retried: number;
  /** Held messages accepted (or rejected for good) at a retry. */
  delivered: number;
  givenUp: number;
}

interface Held<T> {
  item: T;
  key: string;
  attempts: number;
}

export class RetryQueue<T> {
  readonly counts: RetryCounts = { refused: 0, queuedBehind: 0, retried: 0, delivered: 0, givenUp: 0 };
  private held: Array<Held<T>> = [];
  /** Held messages per key. */
  private readonly keys = new Map<string, number>();
  private readonly backoff: Backoff;
  private delayMs: number;
  private dueAt = 0;
  /** Every delivery goes through this chain: a retry and a new batch never overtake each other. */
  private chain: Promise<unknown> = Promise.resolve();
  private timerHandle: unknown = null;
  private stopped = false;
  /** Resolves on halt(): a producer waiting for room stops waiting. */
  private readonly halted: Promise<void>;
  private wakeUp: () => void = () => undefined;

  constructor(private readonly opts: RetryQueueOptions<T>) {
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.delayMs = this.backoff.initialMs;
    this.halted = new Promise((resolve) => (this.wakeUp = resolve));
  }

  /** Messages waiting to be sent again. */
  get size(): number {
    return this.held.length;
  }

  /** When the next retry is due (clock ms), or null when nothing is held. */
  get nextRetryAt(): number | null {
    return this.held.length > 0 ? this.dueAt : null;
  }

  /**
   * Sends a batch: what is due is retried first; messages of a key with something held wait behind
   * it; the rest are delivered now. Resolves once the batch is delivered (or held), after waiting
   * for room when more than maxHeld messages are held.
   */
  submit(items: T[]): Promise<void> {
    return this.serial(async () => {
      if (this.isDue()) await this.retryHeld();
      const now: T[] = [];
      for (const item of items) {
        // Keys are worked out only while something is held (a producer may have to parse for them).
        const key = this.keys.size > 0 ? this.opts.keyOf(item) : null;
        if (key !== null && this.keys.has(key)) {
          this.counts.queuedBehind++;
          this.hold({ item, key, attempts: 0 });
        } else now.push(item);
      }
      if (now.length > 0) {
        const verdicts = await this.opts.deliver(now);
        now.forEach((item, i) => {
          if (verdicts[i] !== 'retry') return;
          this.counts.refused++;
          this.hold({ item, key: this.opts.keyOf(item), attempts: 1 });
        });
      }
      for (let guard = 0; this.held.length > this.opts.maxHeld && !this.stopped && guard < 1_000_000; guard++) {
        await Promise.race([this.opts.clock.sleep(Math.max(0, this.dueAt - this.opts.clock.now())), this.halted]);
        if (this.stopped) break;
        await this.retryHeld();
      }
      this.arm();
    });
  }

  /** Retries the held messages if their backoff has passed (a timer, or a caller's own loop). */
  retryDue(): Promise<void> {
    return this.serial(async () => {
      if (this.isDue()) await this.retryHeld();
      this.arm();
    });
  }

  /** Retries the held messages now, whatever the backoff (shutdown: a last chance). */
  retryNow(): Promise<void> {
    return this.serial(async () => {
      if (this.held.length > 0) await this.retryHeld();
    });
  }

  /** Stops the timer, and a producer waiting for room stops waiting (its batch stays held). */
  halt(): void {
    this.stopped = true;
    this.disarm();
    this.wakeUp();
  }

  /** Halts, waits for the delivery under way; what is still held is returned (and dropped from the queue). */
  async stop(): Promise<T[]> {
    this.halt();
    await this.chain.catch(() => undefined);
    const left = this.held.map((h) => h.item);
    this.held = [];
    this.keys.clear();
    return left;
  }

  private serial(op: () => Promise<void>): Promise<void> {
    const run = async (): Promise<void> => {
      const before = this.held.length;
      try {
        await op();
      } finally {
        if ((before === 0) !== (this.held.length === 0)) this.opts.onHeldChange?.(this.held.length, this.counts);
      }
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private isDue(): boolean {
    return this.held.length > 0 && this.opts.clock.now() >= this.dueAt;
  }

  private hold(h: Held<T>): void {
    if (this.held.length === 0) {
      this.delayMs = this.backoff.initialMs;
      this.dueAt = this.opts.clock.now() + this.delayMs;
    }
    this.held.push(h);
    this.keys.set(h.key, (this.keys.get(h.key) ?? 0) + 1);
  }

  /** Sends every held message again, in order; those refused again stay, in order, and the wait grows. */
  private async retryHeld(): Promise<void> {
    const batch = this.held;
    this.held = [];
    this.keys.clear();
    let verdicts: Verdict[];
    try {
      verdicts = await this.opts.deliver(batch.map((h) => h.item));
    } catch {
      verdicts = batch.map(() => 'retry');
    }
    this.counts.retried += batch.length;
    const before = batch.length;
    const maxAttempts = this.opts.maxAttempts ?? Infinity;
    batch.forEach((h, i) => {
      h.attempts++;
      if (verdicts[i] !== 'retry') {
        this.counts.delivered++;
        return;
      }
      if (h.attempts >= maxAttempts && !this.keys.has(h.key)) {
        this.counts.givenUp++;
        this.opts.onGiveUp?.(h.item, h.attempts);
        return;
      }
      this.held.push(h);
      this.keys.set(h.key, (this.keys.get(h.key) ?? 0) + 1);
    });
    const progress = this.held.length < before;
    this.delayMs = progress
      ? this.backoff.initialMs
      : Math.min(this.backoff.maxMs, Math.round(this.delayMs * this.backoff.factor));
    this.dueAt = this.opts.clock.now() + this.delayMs;
  }

  private arm(): void {
    const timer = this.opts.timer;
    if (timer === undefined || this.stopped) return;
    this.disarm();
    if (this.held.length === 0) return;
    this.timerHandle = timer.set(
      () => {
        this.timerHandle = null;
        void this.retryDue();
      },
      Math.max(0, this.dueAt - this.opts.clock.now()),
    );
  }

  private disarm(): void {
    if (this.timerHandle !== null) this.opts.timer?.clear(this.timerHandle);
    this.timerHandle = null;
  }
}
