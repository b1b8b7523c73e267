// What applying one feed message returns: applied (changed or a harmless repeat) or rejected with a reason.
import type { ErrorCode } from '../domain/errors.js';

export type ApplyOutcome = { ok: true; changed: boolean } | { ok: false; error: ErrorCode; message: string };

export const applied = (changed: boolean): ApplyOutcome => ({ ok: true, changed });
export const rejected = (message: string, error: ErrorCode = 'bad_request'): ApplyOutcome => ({
  ok: false,
  error,
  message,
});

/** The answer of a feed ingestion (`POST /admin/v1/feed`, replay). */
export interface FeedReport {
  accepted: number;
  rejected: number;
  errors: Array<{ line: number; error: ErrorCode; message: string }>;
}
