// Which webhook messages one change-log entry makes for one subscription, and their bodies `{type, timestamp, data}`.
import type { ResolvedMarket } from '../../domain/resolved-market.js';
import type { WebhookSubscription, WebhookType } from '../../domain/webhooks.js';
import type { LogEntry } from '../../live/log-entry.js';
import { familyOf } from '../../live/market-families.js';
import { iso } from '../../live/payloads.js';
import { renderEntryData } from '../../live/log-render.js';

/** The entry kinds any webhook type follows; every other entry is passed over at once. */
export const FOLLOWED_KINDS: ReadonlySet<LogEntry['kind']> = new Set(['result', 'settlement', 'status', 'outright']);

export interface WebhookMessage {
  type: WebhookType;
  body: string;
}

/** A subscription's filters, precomputed once per subscription list. */
export interface MatchingSubscription {
  sub: WebhookSubscription;
  types: ReadonlySet<WebhookType>;
  eventIds: ReadonlySet<string> | null;
  families: ReadonlySet<string> | null;
}

export function matching(sub: WebhookSubscription): MatchingSubscription {
  return {
    sub,
    types: new Set(sub.types),
    eventIds: sub.eventIds === null ? null : new Set(sub.eventIds),
    families: sub.markets === null ? null : new Set(sub.markets),
  };
}

export function bodyOf(type: string, at: number, data: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(iso(at))},"data":${data}}`;
}

/** The stream's filters (sport, league, event ids), as the stream applies them. */
function inScope(m: MatchingSubscription, entry: LogEntry): boolean {
  if (m.eventIds !== null && !m.eventIds.has(entry.eventId)) return false;
  if (m.sub.sport !== null && entry.sport !== m.sub.sport) return false;
  if (m.sub.league !== null && entry.league !== m.sub.league) return false;
  return true;
}

/** A settlement's data with only the asked families' markets (null: none of its markets is asked for). */
function settlementData(m: MatchingSubscription, json: string): { data: string; settled: boolean } | null {
  const parsed = JSON.parse(json) as { settled?: boolean; resolved_markets?: ResolvedMarket[] };
  const settled = parsed.settled === true;
  if (m.families === null) return { data: json, settled };
  const families = m.families;
  const kept = (parsed.resolved_markets ?? []).filter((r) => families.has(familyOf(r.key)));
  if (kept.length === (parsed.resolved_markets ?? []).length) return { data: json, settled };
  return { data: JSON.stringify({ ...parsed, resolved_markets: kept }), settled };
}

/** The messages `entry` makes for the subscription, in the order they are to be delivered. */
export function messagesFor(m: MatchingSubscription, entry: LogEntry): WebhookMessage[] {
  if (!inScope(m, entry)) return [];
  const out: WebhookMessage[] = [];
  const { types, sub } = m;
  switch (entry.kind) {
    case 'result':
      if (types.has('result')) out.push({ type: 'result', body: bodyOf('result', entry.at, entry.json) });
      break;
    case 'status':
      if (types.has('status')) out.push({ type: 'status', body: bodyOf('status', entry.at, entry.json) });
      break;
    case 'settlement': {
      if (!types.has('settlement') && !types.has('settlement.completed')) break;
      const rendered = renderEntryData(entry, { format: sub.oddsFormat, families: null });
      if (rendered === null) break;
      const s = settlementData(m, rendered);
      if (s === null) break;
      const resolved = (JSON.parse(s.data) as { resolved_markets?: unknown[] }).resolved_markets ?? [];
      if (types.has('settlement') && resolved.length > 0) {
        out.push({ type: 'settlement', body: bodyOf('settlement', entry.at, s.data) });
      }
      if (types.has('settlement.completed') && s.settled) {
        const d = JSON.parse(s.data) as Record<string, unknown>;
        // The summary: the whole entry is one GET /v1/settlements/{event_id} away.
        const summary = {
          event_id: d.event_id,
          revision: d.revision,
          resolved_markets_count: d.resolved_markets_count,
          total_markets_count: d.total_markets_count,
          correction: d.correction,
          updated_at: d.updated_at,
        };
        out.push({
          type: 'settlement.completed',
          body: bodyOf('settlement.completed', entry.at, JSON.stringify(summary)),
        });
      }
      break;
    }
    case 'outright':
      if (entry.change === 'result' && types.has('outright_settlement')) {
        const data = renderEntryData(entry, { format: sub.oddsFormat, families: null });
        if (data !== null)
          out.push({ type: 'outright_settlement', body: bodyOf('outright_settlement', entry.at, data) });
      }
      break;
    case 'odds':
      if (types.has('odds') && m.eventIds !== null) {
        const data = renderEntryData(entry, { format: sub.oddsFormat, families: null });
        if (data !== null) out.push({ type: 'odds', body: bodyOf('odds', entry.at, data) });
      }
      break;
    default:
      break;
  }
  return out;
}
