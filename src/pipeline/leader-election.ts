// Pipeline leader election: one PostgreSQL session holds an advisory lock; its holder leads, losing that session deposes it, and it stands again.
import pg from 'pg';

/** First half of the lock key; the second is a hash of the schema, so installations sharing a database each elect their own leader. */
const LOCK_CLASS = 0x5d5_1ead;

/** PostgreSQL's "lock_not_available": the lock wait ran out (another candidate leads). */
const LOCK_TIMEOUT = '55P03';

export interface ElectionLogger {
  info?(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LeaderElectionOptions {
  /** DATABASE_URL (its search_path picks the schema, and with it the lock). */
  url: string;
  /**
   * How long one wait for the lock lasts before the connection is checked again, and how often a
   * leader checks its session (default 1000 ms). A standby waits in PostgreSQL's lock queue, so it
   * takes over the moment the leader's session ends, not at its next try.
   */
  intervalMs?: number;
  /** After leading failed to start, how long before standing again: the other candidates' turn (default 2 × interval). */
  retryMs?: number;
  log: ElectionLogger;
  /** The lock is held: start leading. A rejection steps down (the lock is released) and stands again later. */
  onElected(): Promise<void>;
  /**
   * The lock's session is gone, or leading failed to start: another candidate may lead any moment,
   * so this one must stop writing at once (synchronously, before the returned promise settles) and
   * become a standby; the election stands again once the promise settles.
   */
  onLost(reason: string): Promise<void> | void;
}

/**
 * `pg_advisory_lock` on a dedicated connection, waited for with a `lock_timeout` of one interval
 * and waited for again: PostgreSQL releases the lock when the leader's session ends (including when
 * the process is killed: the server sees the socket close) and grants it to the waiting standby at
 * once. The leader runs a trivial query on that connection every interval: a connection error or a
 * query that does not answer in time means the lock may be gone, and the leader steps down. Nothing
 * here ends the process: a candidate keeps trying through a database outage.
 */
export class LeaderElection {
  private client: pg.Client | null = null;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private standbyFailing = false;
  /** The step-down in progress (the loop stands again once it is done). */
  private stepping: Promise<void> | null = null;
  /** Wakes the loop's sleep (a lost connection, stop). */
  private wake: (() => void) | null = null;
  /** Whether this process holds the lock (from the moment it is granted until it is lost). */
  leading = false;
  /** Times this candidate was elected, and stepped down (metrics, tests). */
  terms = 0;
  stepDowns = 0;
  /** The PostgreSQL backend of the election connection (operators: `pg_stat_activity`). */
  sessionPid: number | null = null;

  constructor(private readonly opts: LeaderElectionOptions) {}

  private get intervalMs(): number {
    return this.opts.intervalMs ?? 1000;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Releases the lock (a clean shutdown: a waiting standby takes over at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await this.loop;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.opts.url,
      connectionTimeoutMillis: 5000,
      // Longer than one lock wait (lock_timeout below ends that one).
      query_timeout: this.intervalMs + 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
      application_name: 'sports-data pipeline election',
    });
    const gone = (reason: string): void => {
      if (this.client !== client) return;
      this.client = null;
      if (this.leading) this.lose(reason);
      this.wake?.();
    };
    client.on('error', (err) => gone(`the election connection failed: ${err.message}`));
    client.on('end', () => gone('the election connection ended'));
    await client.connect();
    await client.query(`set lock_timeout = ${Math.max(1, Math.round(this.intervalMs))}`);
    const pid = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    this.sessionPid = pid.rows[0]?.pid ?? null;
    return client;
  }

  /** Stops leading at once (onLost fences synchronously); the loop stands again when the step-down is done. */
  private lose(reason: string): void {
    if (!this.leading) return;
    this.leading = false;
    this.stepDowns++;
    this.opts.log.error({ reason }, 'pipeline leadership lost: stepping down to standby, standing again');
    this.stepping = Promise.resolve()
      .then(() => this.opts.onLost(reason))
      .catch((err: unknown) => this.opts.log.error({ err }, 'stepping down failed'))
      .finally(() => (this.stepping = null));
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.wake = null;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.stepping !== null) await this.stepping;
      if (this.stopped) break;
      try {
        const client = (this.client ??= await this.connect());
        if (this.leading) {
          await this.pause(this.intervalMs);
          if (this.leading && this.client === client) await client.query('select 1');
          continue;
        }
        try {
          await client.query('select pg_advisory_lock($1, hashtext(current_schema()))', [LOCK_CLASS]);
        } catch (err) {
          if ((err as { code?: string }).code === LOCK_TIMEOUT) {
            this.recovered();
            continue; // another candidate leads: wait again
          }
          throw err;
        }
        this.recovered();
        if (this.stopped || this.client !== client) continue;
        this.leading = true;
        this.terms++;
        try {
          await this.opts.onElected();
        } catch (err) {
          if (!this.leading) continue; // lost meanwhile: already stepping down
          this.lose(`leading failed to start: ${err instanceof Error ? err.message : String(err)}`);
          // Ending the session releases the lock: another candidate may have better luck.
          await this.dropClient();
          await this.stepping;
          await this.pause(this.opts.retryMs ?? 2 * this.intervalMs);
        }
      } catch (err) {
        if (this.stopped) break;
        if (this.leading)
          this.lose(`the election connection failed: ${err instanceof Error ? err.message : String(err)}`);
        else if (!this.standbyFailing) this.opts.log.error({ err }, 'the election cannot reach PostgreSQL; retrying');
        this.standbyFailing = true;
        await this.dropClient();
        await this.pause(Math.min(this.intervalMs, 1000));
      }
    }
  }

  private recovered(): void {
    if (!this.standbyFailing) return;
    this.standbyFailing = false;
    this.opts.log.warn({}, 'the election connection to PostgreSQL works again');
  }
}
