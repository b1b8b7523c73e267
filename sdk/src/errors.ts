// SportsDataError: every failure the SDK reports, with the service's error code, HTTP status and Retry-After.

/** Machine codes of the service (interface.md "Errors"), plus the SDK's own for failures before any answer. */
export type SportsDataErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'service_unavailable'
  /** No answer: DNS, refused connection, reset, abort. */
  | 'network_error'
  /** An answer that is not the JSON the contract promises. */
  | 'invalid_response'
  | (string & {});

export interface SportsDataErrorInit {
  status: number;
  code: SportsDataErrorCode;
  message: string;
  /** Seconds the service asked to wait (Retry-After), or null. */
  retryAfter?: number | null;
  /** The failing part, on service_unavailable. */
  component?: string | null;
  cause?: unknown;
}

export class SportsDataError extends Error {
  override readonly name = 'SportsDataError';
  /** HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly code: SportsDataErrorCode;
  readonly retryAfter: number | null;
  readonly component: string | null;

  constructor(init: SportsDataErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.retryAfter = init.retryAfter ?? null;
    this.component = init.component ?? null;
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error of a non-2xx answer: the body's {error, message, component} when it is one, else the status. */
export async function errorFromResponse(res: Response): Promise<SportsDataError> {
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return new SportsDataError({
    status: res.status,
    code: typeof b.error === 'string' ? b.error : res.status >= 500 ? 'server_error' : 'invalid_response',
    message: typeof b.message === 'string' ? b.message : `HTTP ${res.status} ${res.statusText}`.trim(),
    retryAfter,
    component: typeof b.component === 'string' ? b.component : null,
  });
}
