// What applying one feed message returns: applied (changed or a harmless repeat) or rejected with a reason, retryable or not.
import type { ErrorCode } from '../domain/errors.js';

export type ApplyOutcome =
  | { ok: true; changed: boolean }
  | {
      ok: false;
      error: ErrorCode;
      message: string;
      /** The failing part, on `service_unavailable` (e.g. `datastore`). */
      component?: string;
      /**
       * Refused for a transient reason (the store could not commit): nothing changed, and the same
       * message, sent again later in the same order, will be accepted. Absent: not retryable (the
       * message itself is wrong for the schema or the lifecycle; sending it again changes nothing).
       */
      retryable?: boolean;
    };

export const applied = (changed: boolean): ApplyOutcome => ({ ok: true, changed });
export const rejected = (message: string, error: ErrorCode = 'bad_request'): ApplyOutcome => ({
  ok: false,
  error,
  message,
});

/** A refusal for a transient reason: a component (the store) is unavailable; send the message again later. */
export const unavailable = (message: string, component = 'datastore'): ApplyOutcome => ({
  ok: false,
  error: 'service_unavailable',
  component,
  message,
  retryable: true,
});

/**
 * Whether a producer should send the message again (with backoff, keeping its order among the
 * messages of the same event). `service_unavailable` is transient by definition, flagged or not.
 */
export function isRetryable(o: ApplyOutcome): boolean {
  return !o.ok && (o.retryable ?? o.error === 'service_unavailable');
}

/** One refused line of a feed ingestion. */
export interface FeedLineError {
  line: number;
  error: ErrorCode;
  message: string;
  component?: string;
  /** Present (true) when the line was refused for a transient reason: send it again later, in order. */
  retryable?: true;
}

/** The answer of a feed ingestion (`POST /admin/v1/feed`, replay). */
export interface FeedReport {
  accepted: number;
  rejected: number;
  errors: FeedLineError[];
}

/** A report's entry for a refused message. */
export function lineError(line: number, o: Extract<ApplyOutcome, { ok: false }>): FeedLineError {
  return {
    line,
    error: o.error,
    message: o.message,
    ...(o.component !== undefined ? { component: o.component } : {}),
    ...(isRetryable(o) ? { retryable: true as const } : {}),
  };
}
