// What a stream client asked for (filters, odds format) and which change-log entries it receives.
import type { OddsFormat } from '../../domain/types.js';
import type { LogEntry, LogEntryKind } from '../../live/log-entry.js';

/** The stream's event names (decisions.md), heartbeat and snapshot_required aside. */
export const STREAM_EVENT_NAMES = ['odds', 'markets', 'score', 'status', 'result', 'settlement', 'outright'] as const;
export type StreamEventName = (typeof STREAM_EVENT_NAMES)[number];

/**
 * Event names a stream always sends, whatever `types` says (keep-alive, resume and end-of-stream
 * signals a client cannot safely miss): `types` accepts them, as the contract lists them, and
 * filters nothing with them.
 */
export const STREAM_CONTROL_EVENT_NAMES = ['heartbeat', 'snapshot_required', 'close'] as const;

/** The stream event an entry is shown as; null for changes followed only inside the service. */
export function streamNameOf(kind: LogEntryKind): StreamEventName | null {
  switch (kind) {
    case 'fixture':
    case 'status':
      return 'status';
    case 'stats':
    case 'evicted':
      return null;
    default:
      return kind;
  }
}

export interface StreamSubscription {
  sport: string | null;
  /** Exact league slug. */
  league: string | null;
  eventIds: ReadonlySet<string> | null;
  types: ReadonlySet<StreamEventName> | null;
  /** Market families (`1x2`, `totals`) for odds and markets events. */
  families: ReadonlySet<string> | null;
  format: OddsFormat;
}

export function matches(sub: StreamSubscription, entry: LogEntry): boolean {
  const name = streamNameOf(entry.kind);
  if (name === null) return false;
  if (sub.types !== null && !sub.types.has(name)) return false;
  if (sub.eventIds !== null && !sub.eventIds.has(entry.eventId)) return false;
  if (sub.sport !== null && entry.sport !== sub.sport) return false;
  if (sub.league !== null && entry.league !== sub.league) return false;
  return true;
}

/** Clients asking the same rendering share one rendered frame per entry. */
export function renderKey(sub: StreamSubscription): string {
  return sub.families === null ? sub.format : `${sub.format}|${[...sub.families].sort().join(',')}`;
}

/**
 * The whole subscription as one string: streams with equal keys receive the same events in the
 * same rendering, so one flush renders their bytes once for all of them.
 */
export function subscriptionKey(sub: StreamSubscription): string {
  const list = (xs: ReadonlySet<string> | null): string => (xs === null ? '*' : [...xs].sort().join(','));
  return [
    sub.format,
    sub.sport ?? '*',
    sub.league ?? '*',
    list(sub.eventIds),
    list(sub.types),
    list(sub.families),
  ].join('|');
}
