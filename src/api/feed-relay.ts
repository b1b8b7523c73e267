// An API node's feed ingress (ROLE=api): the body goes on to the pipeline leader, tried among the pipeline nodes in turn.
import { ServiceError } from '../domain/errors.js';

/** The leader's answer header: the change-stream position (`epoch:seq`) of what it applied. */
export const STREAM_POSITION_HEADER = 'x-change-stream-position';

export interface RelayedAnswer {
  status: number;
  contentType: string;
  body: string;
  /** The leader's change-stream position after the request, when it answered one. */
  position: string | null;
}

/**
 * Standbys answer 503, and a node that is down refuses the connection: both mean "try the next".
 * A retried body may have been applied already; feed messages are idempotent, so that is harmless.
 * The node that answered is tried first next time.
 */
export class FeedRelay {
  private preferred = 0;

  constructor(
    private readonly urls: readonly string[],
    private readonly adminKey: string,
    private readonly timeoutMs = 60_000,
  ) {}

  async send(body: Buffer | string, contentType: string): Promise<RelayedAnswer> {
    const n = this.urls.length;
    let lastProblem = 'no PIPELINE_URL is configured';
    for (let k = 0; k < n; k++) {
      const i = (this.preferred + k) % n;
      const base = this.urls[i] as string;
      let res: Response;
      try {
        res = await fetch(`${base}/admin/v1/feed`, {
          method: 'POST',
          headers: { 'content-type': contentType, 'x-admin-key': this.adminKey },
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        lastProblem = `${base}: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`;
        continue;
      }
      if (res.status === 503) {
        lastProblem = `${base}: standby`;
        await res.body?.cancel();
        continue;
      }
      this.preferred = i;
      return {
        status: res.status,
        contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8',
        body: await res.text(),
        position: res.headers.get(STREAM_POSITION_HEADER),
      };
    }
    throw new ServiceError(
      'service_unavailable',
      `no pipeline node takes the feed just now (${lastProblem}); retry shortly`,
      { component: 'pipeline' },
    );
  }
}
