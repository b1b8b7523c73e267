// GET /v1/stream: Server-Sent Events of every change to the read state, with exact resume by Last-Event-ID.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { badRequest, ServiceError } from '../../domain/errors.js';
import type { OddsFormat } from '../../domain/types.js';
import type { PreparedReplay } from '../../live/change-log.js';
import { compareLogPositions, formatLogPosition, parseLogPosition, type LogPosition } from '../../live/log-position.js';
import type { ApiContext } from '../context.js';
import { parseSport } from '../event-filters.js';
import { chargeKey } from '../quota/metering.js';
import { keyRouteErrors, OddsFormatParam } from '../schemas/common.js';
import { FamilyListParam, IdListParam, listItems, MAX_FAMILIES, NameListParam, SportParam } from '../schemas/params.js';
import { snapshotSource } from '../stream/snapshot.js';
import { SSE_HEADERS, SSE_PREAMBLE } from '../stream/sse.js';
import { StreamConnection, type HoldLimits } from '../stream/stream-connection.js';
import { FrameRenderer } from '../stream/frame-renderer.js';
import { StreamHub } from '../stream/stream-hub.js';
import { StreamMetrics } from '../stream/stream-metrics.js';
import { StreamProcess } from '../stream/stream-process.js';
import {
  STREAM_CONTROL_EVENT_NAMES,
  STREAM_EVENT_NAMES,
  type StreamEventName,
  type StreamSubscription,
} from '../stream/stream-subscription.js';

const MAX_EVENT_IDS = 50;
/** What `types` accepts: the filterable names, and the ones always sent (naming them filters nothing). */
const TYPE_NAMES: readonly string[] = [...STREAM_EVENT_NAMES, ...STREAM_CONTROL_EVENT_NAMES];

/** What one slow client may make the service hold before it is closed (about 2 MB of memory). */
const HOLD_LIMITS: HoldLimits = { maxSelections: 20_000, maxEntries: 5_000, maxStallMs: 60_000 };

export const StreamQuery = Type.Object({
  sport: SportParam,
  league: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'exact league slug' })),
  event_ids: IdListParam(MAX_EVENT_IDS, 'these events (or outright tournaments)'),
  types: NameListParam(
    TYPE_NAMES,
    TYPE_NAMES.length,
    'event name',
    `event names (${STREAM_CONTROL_EVENT_NAMES.join(', ')} are always sent; naming them filters nothing)`,
  ),
  markets: FamilyListParam('only these markets in odds and markets events'),
  odds_format: OddsFormatParam,
  snapshot: Type.Optional(Type.Boolean({ description: 'first send the current state of every matching event' })),
  last_event_id: Type.Optional(
    Type.String({ maxLength: 100, description: 'resume after this id (as the Last-Event-ID header)' }),
  ),
  api_key: Type.Optional(
    Type.String({ description: "the key, for browsers' EventSource (which cannot send headers)" }),
  ),
});

/** A list the route's schema has checked (pattern: items, count), split into its items. */
function csv(value: string | undefined, param: string, max: number): string[] | null {
  if (value === undefined) return null;
  const items = listItems(value);
  if (items.some((s) => s === '')) throw badRequest(`query parameter '${param}' has an empty item`);
  if (items.length > max) throw badRequest(`query parameter '${param}' lists ${items.length} values; at most ${max}`);
  return items;
}

function subscriptionOf(q: {
  sport?: string;
  league?: string;
  event_ids?: string;
  types?: string;
  markets?: string;
  odds_format?: OddsFormat;
}): StreamSubscription {
  const ids = csv(q.event_ids, 'event_ids', MAX_EVENT_IDS);
  const types = csv(q.types, 'types', TYPE_NAMES.length);
  for (const t of types ?? []) {
    if (!TYPE_NAMES.includes(t)) {
      throw badRequest(`query parameter 'types' has an unknown event name '${t}' (use ${TYPE_NAMES.join(', ')})`);
    }
  }
  const families = csv(q.markets, 'markets', MAX_FAMILIES)?.map((f) => f.toLowerCase()) ?? null;
  return {
    sport: parseSport(q.sport),
    league: q.league ?? null,
    eventIds: ids === null ? null : new Set(ids),
    types:
      types === null
        ? null
        : new Set(types.filter((t): t is StreamEventName => (STREAM_EVENT_NAMES as readonly string[]).includes(t))),
    families: families === null ? null : new Set(families),
    format: q.odds_format ?? 'decimal',
  };
}

export const STREAM_ROUTE = '/v1/stream';

/** What the app does for the stream route beyond it. */
export interface StreamRouteHooks {
  /** A stream its client closed (no `finish`): its request count and access line. */
  ended?: (request: FastifyRequest, reply: FastifyReply) => void;
}

export function streamRoutes(ctx: ApiContext, hooks: StreamRouteHooks = {}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const { readModel, settings } = ctx;
    const log = readModel.log;
    const metrics = new StreamMetrics(ctx.metrics.registry, () => hub.size + (proc?.size ?? 0), log);
    const hub: StreamHub = new StreamHub({
      log,
      metrics,
      now: ctx.now,
      worldNow: ctx.worldNow,
      heartbeatMs: settings.streamHeartbeatSeconds * 1000,
      charge: async (keyId) => {
        const key = keyPlans.get(keyId);
        return key === undefined ? true : chargeKey(ctx, keyId, key);
      },
      // Odds frames are most of a flush's work: a worker thread writes them (started at the first flush).
      ...(settings.streamFrameWorker ? { renderer: new FrameRenderer(app.log) } : {}),
    });
    /** The plan of each key with an open stream (its later periods are charged to it). */
    const keyPlans = new Map<string, string>();
    // STREAM_PROCESS=on: caught-up streams move to a process of their own (docs/streaming.md).
    const proc: StreamProcess | null = settings.streamProcess
      ? new StreamProcess({
          log,
          hub,
          metrics,
          familyIdOf: (eventId, marketId) => familyIdOf(eventId, marketId),
          clock: () => ({ wall: Date.now(), now: ctx.now(), world: ctx.worldNow(), speed: ctx.worldClock.speed }),
          heartbeatMs: settings.streamHeartbeatSeconds * 1000,
          bufferBytes: settings.streamBufferBytes,
          limits: HOLD_LIMITS,
          charge: (keyId) => {
            const plan = keyPlans.get(keyId);
            return plan === undefined ? true : chargeKey(ctx, keyId, plan);
          },
          warn: (message) => app.log.warn(message),
          registry: ctx.metrics.registry,
        })
      : null;
    // Metering refuses a stream beyond the plan's before counting it.
    ctx.openStreams = (keyId) => hub.openFor(keyId) + (proc?.openFor(keyId) ?? 0);
    app.addHook('preClose', async () => {
      hub.closeAll();
      await proc?.close();
    });
    const keyOf = (eventId: string, marketId: number): string | undefined => {
      const le = readModel.get(eventId);
      if (le === undefined) return undefined;
      const i = le.book.indexOfMarket(marketId);
      return i < 0 ? undefined : le.book.key(i);
    };
    const familyIdOf = (eventId: string, marketId: number): number => {
      const le = readModel.get(eventId);
      if (le === undefined) return 0;
      const i = le.book.indexOfMarket(marketId);
      return i < 0 ? 0 : le.book.familyId(i);
    };

    app.get(
      STREAM_ROUTE,
      {
        exposeHeadRoute: false,
        config: { metering: 'stream' },
        schema: {
          operationId: 'openStream',
          tags: ['stream'],
          summary: 'Server-Sent Events: every change, with exact resume by Last-Event-ID (docs/streaming.md)',
          description:
            'Answers `text/event-stream`. Events: odds, markets, score, status, result, settlement, outright, heartbeat, snapshot_required (and close). Opening counts one request, each started 5 minutes one more; the plan limits concurrent streams.',
          querystring: StreamQuery,
          response: keyRouteErrors,
        },
      },
      async (request, reply) => {
        const q = request.query;
        const sub = subscriptionOf(q);
        const key = request.apiKey;
        if (key === undefined) throw new ServiceError('unauthorized', 'a stream needs an API key');

        // An empty id is no id (as EventSource sends none), whether it comes as the header or the query.
        const given = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
        const lastEventId = given(request.headers['last-event-id']) ?? given(q.last_event_id) ?? null;
        if (lastEventId !== null && ctx.streamCatchUpMs !== undefined) await reached(lastEventId, ctx.streamCatchUpMs);
        // Read before anything is written: what the store holds of the window is read back here; the
        // answer is made below, in the step that registers the stream, so nothing falls between them.
        const found = lastEventId !== null ? await lookup(lastEventId) : null;
        reply.hijack();
        const res = reply.raw;
        // The client went away while the store was read (or this node caught up): there is nobody to
        // stream to, and a stream registered now would never hear its socket close (it stayed open,
        // counted against the key's streams and charged, for good).
        if (res.destroyed || request.raw.destroyed) {
          hooks.ended?.(request, reply);
          return;
        }
        const headers: Record<string, string | number | string[]> = {};
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) headers[name] = value as string | number | string[];
        }
        // A stream the stream process may take cannot hand its connection back for another request
        // once it ends: the client is told not to reuse it.
        res.writeHead(200, { ...headers, ...SSE_HEADERS, ...(proc !== null ? { connection: 'close' } : {}) });
        res.write(SSE_PREAMBLE);
        res.socket?.setNoDelay(true);
        // Fastify completes (counts, logs) a response on `finish`; a client that goes away gives only `close`.
        res.once('close', () => {
          if (!res.writableFinished) hooks.ended?.(request, reply);
        });

        keyPlans.set(key.id, key.plan);
        const conn = new StreamConnection(
          {
            res,
            sub,
            keyId: key.id,
            bufferBytes: settings.streamBufferBytes,
            limits: HOLD_LIMITS,
            metrics,
            keyOf,
            familyIdOf,
            head: () => log.head,
            continuity: log.continuity,
            now: ctx.now,
            onClose: (c) => hub.remove(c),
          },
          log.head,
          lastEventId,
        );
        hub.add(conn);
        // Everything below runs in this turn: no entry can be appended between the replay and the live flush.
        hub.flush();
        if (lastEventId !== null && found !== null) {
          const refused = resume(conn, found);
          metrics.resumes.inc({ outcome: refused === null ? 'exact' : 'snapshot_required' });
          if (refused === null) return;
          conn.writeEvent(
            'snapshot_required',
            JSON.stringify({ reason: refused, last_event_id: lastEventId, position: formatLogPosition(log.head) }),
            formatLogPosition(log.head),
          );
        }
        if (q.snapshot === true) conn.startSnapshot(snapshotSource(readModel, ctx.outrights, sub));
      },
    );

    /** Resolves once this node's log has reached the position `id` names, or after `timeoutMs` (then 'unknown' answers it). */
    function reached(id: string, timeoutMs: number): Promise<void> {
      const position = parseLogPosition(id);
      if (position === null || compareLogPositions(position, log.head) <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          unsubscribe();
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        const unsubscribe = log.subscribe((entry) => {
          if (compareLogPositions(entry.position, position) >= 0) done();
        });
      });
    }

    /** The store reads a resume from an id needs (done when this resolves), or why it cannot be resumed from. */
    async function lookup(id: string): Promise<{ position: LogPosition; replay: PreparedReplay } | string> {
      if (/~\d+$/.test(id)) return 'snapshot_incomplete';
      const position = parseLogPosition(id);
      if (position === null) return 'unknown';
      return { position, replay: await log.prepareReplay(position) };
    }

    /**
     * Replays what followed an id, answered now: call it in the step that registers the stream for
     * live entries. Returns why it cannot, or null when it did.
     */
    function resume(conn: StreamConnection, looked: Awaited<ReturnType<typeof lookup>>): string | null {
      if (typeof looked === 'string') return looked;
      const { position } = looked;
      const found = looked.replay.answer();
      if (!found.ok) return found.reason;
      conn.lastPosition = position;
      // A segment at a time: a resume far back never holds the whole window's entries as objects.
      for (const batch of found.batches) conn.deliver(batch, null);
      return null;
    }
  };
}
