// The one error type of the service: a machine code from interface.md plus a human message.

export type ErrorCode =
  'bad_request' | 'unauthorized' | 'not_found' | 'rate_limited' | 'server_error' | 'service_unavailable';

export class ServiceError extends Error {
  readonly code: ErrorCode;
  /** Names the failing part on `service_unavailable` (e.g. `realtime_data`, `datastore`). */
  readonly component: string | undefined;
  /** Seconds until a retry may succeed, on `rate_limited` (a `service_unavailable` answer says 1 unless set). */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, extra: { component?: string; retryAfter?: number } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.component = extra.component;
    this.retryAfter = extra.retryAfter;
  }
}

export const badRequest = (message: string): ServiceError => new ServiceError('bad_request', message);
export const notFound = (message: string): ServiceError => new ServiceError('not_found', message);
export const unauthorized = (message: string): ServiceError => new ServiceError('unauthorized', message);
