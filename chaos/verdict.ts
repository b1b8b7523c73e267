// The verdict of a chaos campaign, read from its recorded history and the final state every API node serves: each rule broken is a violation.
import { MARKETS_PER_GAME, type Game } from './games.js';
import type { FaultKind, FaultRecord, History } from './history.js';

/** How soon after a component returns health must say 200 on every API node. */
export const HEALTH_RETURN_MS = 2000;
/** A probe sent this long after a fault began must see it (the node notices at its next ping). */
const HEALTH_NOTICE_MS = 1000;
/** Faults after which a stream may be told snapshot_required: a node reloads (a new leader, Redis lost its stream, a node restarted). */
const MAY_RELOAD: ReadonlySet<FaultKind> = new Set([
  'leader-kill',
  'api-node-kill',
  'pg-refuse',
  'pg-drop',
  'redis-kill',
  'redis-restart',
]);
/**
 * How long after a fault ends a snapshot_required is still its consequence: a new leader's term
 * (after PostgreSQL dropped the old one's session) reaches the API nodes once it has loaded the
 * store and they have swapped it in, which took 16 s on the loaded 2-core machine.
 */
const RELOAD_AFTER_MS = 30_000;

export interface ServedResult {
  status: number;
  body: { status?: string; score?: { home: number; away: number }; period_scores?: unknown[] } | null;
}

export interface ServedSettlement {
  event_id: string;
  pending_markets_count: number | null;
  resolved_markets_count: number;
  resolved_markets: Array<{
    market_id: number | null;
    result_revision?: number | null;
    outcomes: Array<{ selection_id: number | null; result: string }>;
  }>;
}

/** What the campaign read after the last fault, once every node was back. */
export interface FinalState {
  /** node → event id → its result answer. */
  results: Map<string, Map<string, ServedResult>>;
  /** node → event id → its entries in the settlement feed (more than one is a duplicate). */
  settlements: Map<string, Map<string, ServedSettlement[]>>;
  /** event id → rows in the store's settlements table. */
  storedEntries: Map<string, number>;
}

export interface Violation {
  rule: string;
  at?: number;
  detail: string;
}

export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

function idKey(id: string): [number, number] {
  const [ms, seq] = id.split('-');
  return [Number(ms), Number(seq)];
}

function before(a: [number, number], b: [number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

export interface Verdict {
  violations: Violation[];
  figures: Record<string, unknown>;
}

export function judge(
  h: History,
  games: readonly Game[],
  resulted: ReadonlySet<string>,
  apiNodes: readonly string[],
  final: FinalState,
): Verdict {
  const v: Violation[] = [];
  const cap = (rule: string): boolean => v.filter((x) => x.rule === rule).length < 50;

  // 1. Every result sent is served by every API node, with the right score and periods.
  let resultsChecked = 0;
  for (const g of games) {
    if (!resulted.has(g.id)) {
      v.push({ rule: 'game not driven to its result', detail: `${g.id}: its result was never accepted` });
      continue;
    }
    for (const node of apiNodes) {
      const r = final.results.get(node)?.get(g.id);
      resultsChecked++;
      const ok =
        r?.status === 200 &&
        r.body?.status === 'ended' &&
        r.body.score?.home === g.home &&
        r.body.score?.away === g.away &&
        JSON.stringify(r.body.period_scores) === JSON.stringify(g.periods);
      if (!ok && cap('result served'))
        v.push({
          rule: 'result served',
          detail: `${node} ${g.id}: expected ended ${g.home}-${g.away} ${JSON.stringify(g.periods)}, got ${r?.status} ${JSON.stringify(r?.body)}`,
        });
    }
  }

  // 2. Every ended game fully settled exactly once, every market as its score says, no revision.
  let settlementsChecked = 0;
  for (const g of games) {
    if (!resulted.has(g.id)) continue;
    const stored = final.storedEntries.get(g.id) ?? 0;
    if (stored !== 1 && cap('settled exactly once'))
      v.push({ rule: 'settled exactly once', detail: `${g.id}: ${stored} settlement rows in the store` });
    for (const node of apiNodes) {
      settlementsChecked++;
      const entries = final.settlements.get(node)?.get(g.id) ?? [];
      const problems: string[] = [];
      if (entries.length !== 1) problems.push(`${entries.length} entries`);
      const e = entries[0];
      if (e !== undefined) {
        if (e.pending_markets_count !== 0) problems.push(`pending ${e.pending_markets_count}`);
        if (e.resolved_markets_count !== MARKETS_PER_GAME) problems.push(`resolved ${e.resolved_markets_count}`);
        const markets = new Set(e.resolved_markets.map((m) => m.market_id));
        if (markets.size !== e.resolved_markets.length) problems.push('a market twice');
        for (const m of e.resolved_markets) {
          if ((m.result_revision ?? 1) > 1) problems.push(`market ${m.market_id} revision ${m.result_revision}`);
          for (const o of m.outcomes) {
            const want = g.expected.get(o.selection_id ?? -1);
            if (want !== o.result) problems.push(`selection ${o.selection_id} ${o.result}, expected ${want}`);
          }
        }
      }
      if (problems.length > 0 && cap('settlement'))
        v.push({ rule: 'settlement', detail: `${node} ${g.id}: ${problems.join('; ')}` });
    }
  }

  // 3. No 500 ever; every 503 says when to retry.
  const statuses: Record<string, number> = {};
  for (const a of h.answers) {
    statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    if (a.status >= 500 && a.status !== 503 && cap('no 5xx but 503'))
      v.push({ rule: 'no 5xx but 503', at: a.at, detail: `${a.node} ${a.path}: ${a.status} ${a.body ?? ''}` });
    if (a.status === 503 && !a.retryAfter && cap('503 with Retry-After'))
      v.push({ rule: '503 with Retry-After', at: a.at, detail: `${a.node} ${a.path}: ${a.body ?? ''}` });
  }
  for (const p of h.health)
    if (p.status >= 500 && p.status !== 503 && cap('no 5xx but 503'))
      v.push({ rule: 'no 5xx but 503', at: p.at, detail: `${p.node} /v1/health: ${p.status}` });

  // 4. Streams: ids strictly increase, no duplicate, a gap only after snapshot_required.
  const union: Array<[number, number]> = [];
  const seen = new Set<string>();
  for (const s of h.streams)
    for (const e of s.events)
      // A change's id (snapshot_required and close carry positions, not changes).
      if (e.id !== null && e.event !== 'snapshot_required' && e.event !== 'close' && !seen.has(e.id)) {
        seen.add(e.id);
        union.push(idKey(e.id));
      }
  union.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  /** The number of union ids strictly between a and b (binary search). */
  const between = (a: [number, number], b: [number, number]): number => {
    const lowerBound = (x: [number, number], strict: boolean): number => {
      let lo = 0;
      let hi = union.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const u = union[mid] as [number, number];
        if (before(u, x) || (strict && !before(x, u))) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return Math.max(0, lowerBound(b, false) - lowerBound(a, true));
  };
  const snapshots: Record<string, number> = {};
  let ids = 0;
  let duplicates = 0;
  let gaps = 0;
  for (const s of h.streams) {
    let last: [number, number] | null = null;
    let lastText = '';
    for (const e of s.events) {
      const snapshot = e.event === 'snapshot_required';
      if (snapshot) {
        snapshots[e.reason ?? '?'] = (snapshots[e.reason ?? '?'] ?? 0) + 1;
        const near = faultsAt(h.faults, e.at);
        if (!near.some((f) => MAY_RELOAD.has(f.kind)) && cap('snapshot_required only after a loss'))
          v.push({
            rule: 'snapshot_required only after a loss',
            at: e.at,
            detail: `${s.name} on ${e.node}: snapshot_required (${e.reason}) ${near.length === 0 ? 'with no fault under way' : `after ${near.map((f) => f.kind).join(', ')}`}`,
          });
      }
      if (e.id === null) continue;
      ids++;
      const k = idKey(e.id);
      // snapshot_required carries the current position: it may repeat the id the client resumed from.
      if (last !== null && (snapshot ? before(k, last) : !before(last, k))) {
        duplicates++;
        if (cap('stream ids increase'))
          v.push({
            rule: 'stream ids increase',
            at: e.at,
            detail: `${s.name} on ${e.node}: ${e.id} after ${lastText}`,
          });
      } else if (last !== null && !snapshot) {
        // After snapshot_required the stream goes on exactly from its position: checked as any other.
        const missed = between(last, k);
        if (missed > 0) {
          gaps++;
          if (cap('no silent gap'))
            v.push({
              rule: 'no silent gap',
              at: e.at,
              detail: `${s.name} on ${e.node}: ${missed} ids other clients got between ${lastText} and ${e.id}, no snapshot_required`,
            });
        }
      }
      last = k;
      lastText = e.id;
    }
  }

  // 5. Health: 503 naming the component while it is down or stalled, 200 soon after it returns.
  const healthFigures: Array<{ kind: FaultKind; at: number; during: string; returnMs: Record<string, number | null> }> =
    [];
  for (const f of h.faults) {
    if (f.component === null) continue;
    const during: Record<string, number> = {};
    for (const p of h.health) {
      if (p.sent < f.start + HEALTH_NOTICE_MS || p.at > f.end || p.status === 0) continue;
      during[`${p.status} ${p.component ?? '-'}`] = (during[`${p.status} ${p.component ?? '-'}`] ?? 0) + 1;
      if ((p.status !== 503 || p.component !== f.component) && cap('health names the fault'))
        v.push({
          rule: 'health names the fault',
          at: p.at,
          detail: `${p.node} during ${f.kind} (${f.detail}): ${p.status} ${p.component ?? ''}, expected 503 ${f.component}`,
        });
    }
    const returnMs: Record<string, number | null> = {};
    for (const node of apiNodes) {
      const first = h.health.find((p) => p.node === node && p.sent >= f.end && p.status === 200);
      returnMs[node] = first === undefined ? null : Math.round(first.at - f.end);
      if ((first === undefined || first.at - f.end > HEALTH_RETURN_MS) && cap('health 200 after the return'))
        v.push({
          rule: 'health 200 after the return',
          at: f.end,
          detail: `${node} after ${f.kind} (${f.detail}): ${first === undefined ? 'never' : `${Math.round(first.at - f.end)} ms`}`,
        });
    }
    healthFigures.push({
      kind: f.kind,
      at: Math.round(f.start),
      during: Object.entries(during)
        .map(([k, n]) => `${n}× ${k}`)
        .join(', '),
      returnMs,
    });
  }

  // 6. Leader takeover: kill to fresh data on every API node.
  const takeovers = h.faults.filter((f) => f.kind === 'leader-kill' && f.takeoverMs !== undefined);
  for (const f of takeovers)
    if (f.takeoverMs === null) v.push({ rule: 'leader takeover', at: f.start, detail: f.detail });
  const takeoverMs = takeovers.map((f) => f.takeoverMs).filter((x): x is number => typeof x === 'number');

  // 7. No node process ends but those the campaign stops.
  for (const c of h.crashes)
    v.push({
      rule: 'no crash',
      at: c.at,
      detail: `${c.node} exited (${c.how}): ${c.lastLines.join(' | ').slice(0, 1500)}`,
    });

  // 8. The feed refused nothing the campaign built valid (a retryable refusal was sent again).
  for (const r of h.feedRejections.slice(0, 50))
    v.push({ rule: 'feed line refused', at: r.at, detail: `${r.error}: ${r.message} (${r.line})` });

  const faults: Record<string, number> = {};
  for (const f of h.faults) faults[f.kind] = (faults[f.kind] ?? 0) + 1;
  const healthStatuses: Record<string, number> = {};
  for (const p of h.health) healthStatuses[p.status] = (healthStatuses[p.status] ?? 0) + 1;
  return {
    violations: v,
    figures: {
      requests: h.answers.length,
      statuses,
      health_probes: h.health.length,
      health_statuses: healthStatuses,
      faults,
      fault_count: h.faults.length,
      crashes: h.crashes.length,
      games: {
        started: games.length,
        resulted: resulted.size,
        results_checked: resultsChecked,
        settlements_checked: settlementsChecked,
      },
      feed: h.feed,
      streams: {
        clients: h.streams.length,
        connects: h.streams.reduce((n, s) => n + s.connects, 0),
        ids,
        distinct_ids: union.length,
        duplicates,
        silent_gaps: gaps,
        snapshot_required: snapshots,
      },
      takeover_ms: {
        samples: takeoverMs,
        p50: percentile(takeoverMs, 50),
        p99: percentile(takeoverMs, 99),
      },
      health: healthFigures,
      violations: v.length,
    },
  };
}

/** The faults under way at `at`, or ended within RELOAD_AFTER_MS before it. */
function faultsAt(faults: readonly FaultRecord[], at: number): FaultRecord[] {
  return faults.filter((f) => f.start - 100 <= at && at <= f.end + RELOAD_AFTER_MS);
}
