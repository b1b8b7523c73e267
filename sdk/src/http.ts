// The HTTP layer: one request with the key and JSON, and bounded retries of 429 (and 503) that honour Retry-After.
import { errorFromResponse, SportsDataError } from './errors.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
/** Waits `ms`; rejects when `signal` aborts. Injected by tests to move a clock instead of waiting. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries of one request after a 429 or a 503 that says when to come back (default 3; 0 = never retry). */
  maxRetries?: number;
  /** The longest Retry-After honoured, in ms (default 60 000): a longer one (an exhausted monthly quota) is thrown at once. */
  maxWaitMs?: number;
  /** Wait used between attempts (default: a timer). */
  sleep?: Sleep;
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export type QueryValue = string | number | boolean | null | undefined;

export interface HttpOptions {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  retry: Required<RetryOptions>;
  headers: Record<string, string>;
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Statuses besides 2xx whose body is the answer (health: 503 degraded). */
  acceptStatus?: readonly number[];
  signal?: AbortSignal | undefined;
  /** Accept header (default application/json). */
  accept?: string;
}

/** `base + path + ?query`, skipping undefined and null values. */
export function urlOf(baseUrl: string, path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${qs === '' ? '' : `?${qs}`}`;
}

/** Whether a refusal may be retried after waiting, and how long: a Retry-After within the bound. */
export function retryDelayMs(err: SportsDataError, retry: Required<RetryOptions>): number | null {
  if (err.status !== 429 && err.status !== 503) return null;
  if (err.retryAfter === null) return err.status === 429 ? 1000 : null;
  const ms = err.retryAfter * 1000;
  return ms <= retry.maxWaitMs ? ms : null;
}

export class Http {
  constructor(readonly options: HttpOptions) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...this.options.headers, ...extra };
    if (this.options.apiKey !== undefined) h['x-api-key'] = this.options.apiKey;
    return h;
  }

  /** Sends a request, retrying refusals the service asked to retry later; throws SportsDataError otherwise. */
  async send(spec: RequestSpec): Promise<Response> {
    const { retry } = this.options;
    const url = urlOf(this.options.baseUrl, spec.path, spec.query);
    const init: RequestInit = {
      method: spec.method,
      headers: this.headers({
        accept: spec.accept ?? 'application/json',
        ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
      }),
      ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
      ...(spec.signal !== undefined ? { signal: spec.signal } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.options.fetch(url, init);
      } catch (cause) {
        throw new SportsDataError({
          status: 0,
          code: 'network_error',
          message: `${spec.method} ${spec.path} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause,
        });
      }
      if (res.ok || spec.acceptStatus?.includes(res.status) === true) return res;
      const err = await errorFromResponse(res);
      const wait = attempt < retry.maxRetries ? retryDelayMs(err, retry) : null;
      if (wait === null) throw err;
      await retry.sleep(wait, spec.signal);
    }
  }

  /** Sends a request and parses its JSON answer. */
  async json<T>(spec: RequestSpec): Promise<T> {
    const res = await this.send(spec);
    try {
      return (await res.json()) as T;
    } catch (cause) {
      throw new SportsDataError({
        status: res.status,
        code: 'invalid_response',
        message: `${spec.method} ${spec.path} answered a body that is not JSON`,
        cause,
      });
    }
  }
}
