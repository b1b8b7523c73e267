// Pipeline leader election: one PostgreSQL session holds an advisory lock; its holder leads, and losing that session ends the leadership.
import pg from 'pg';

/** First half of the lock key; the second is a hash of the schema, so installations sharing a database each elect their own leader. */
const LOCK_CLASS = 0x5d5_1ead;

export interface ElectionLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LeaderElectionOptions {
  /** DATABASE_URL (its search_path picks the schema, and with it the lock). */
  url: string;
  /** How often a standby tries the lock and a leader checks its session (default 1000 ms). */
  intervalMs?: number;
  log: ElectionLogger;
  /** The lock is held: start leading. A rejection counts as a lost leadership. */
  onElected(): Promise<void>;
  /**
   * The lock's session is gone (or leading failed to start): another candidate may lead any
   * moment, so this one must stop writing at once. The service ends the process.
   */
  onLost(reason: string): void;
}

/**
 * `pg_try_advisory_lock` on a dedicated connection, tried every interval. PostgreSQL releases
 * the lock when the session ends, including when the process is killed (the server sees the
 * socket close), so a standby takes over within about one interval. The leader runs a trivial
 * query on that connection every interval: a connection error or a query that does not answer
 * within a few seconds means the lock may be gone, and the leader stops.
 */
export class LeaderElection {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = false;
  private lost = false;
  private standbyFailing = false;
  /** Whether this process holds the lock and has started leading. */
  leading = false;
  /** The PostgreSQL backend of the election connection (operators: `pg_stat_activity`). */
  sessionPid: number | null = null;

  constructor(private readonly opts: LeaderElectionOptions) {}

  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.opts.intervalMs ?? 1000);
  }

  /** Releases the lock (a clean shutdown: a standby takes over at its next try). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.opts.url,
      connectionTimeoutMillis: 5000,
      query_timeout: 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
      application_name: 'sports-data pipeline election',
    });
    const gone = (reason: string): void => {
      if (this.client !== client) return;
      this.client = null;
      if (this.leading) this.lose(reason);
    };
    client.on('error', (err) => gone(`the election connection failed: ${err.message}`));
    client.on('end', () => gone('the election connection ended'));
    await client.connect();
    const pid = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    this.sessionPid = pid.rows[0]?.pid ?? null;
    return client;
  }

  private lose(reason: string): void {
    if (this.lost || this.stopped) return;
    this.lost = true;
    this.leading = false;
    if (this.timer) clearInterval(this.timer);
    this.opts.onLost(reason);
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped || this.lost) return;
    this.busy = true;
    try {
      this.client ??= await this.connect();
      if (this.leading) {
        await this.client.query('select 1');
        return;
      }
      const r = await this.client.query<{ held: boolean }>(
        'select pg_try_advisory_lock($1, hashtext(current_schema())) as held',
        [LOCK_CLASS],
      );
      if (this.standbyFailing) {
        this.standbyFailing = false;
        this.opts.log.warn({}, 'the election connection to PostgreSQL works again');
      }
      if (r.rows[0]?.held !== true) return;
      this.leading = true;
      await this.opts.onElected();
    } catch (err) {
      if (this.leading) {
        this.lose(`leading failed: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      // A standby just tries again with a new connection.
      if (!this.standbyFailing) this.opts.log.error({ err }, 'the election cannot reach PostgreSQL; retrying');
      this.standbyFailing = true;
      const client = this.client;
      this.client = null;
      await client?.end().catch(() => undefined);
    } finally {
      this.busy = false;
    }
  }
}
