// Health and status for clients (/v1/health, /v1/status) and probes for operators (/livez, /readyz, /metrics).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { API_VERSION, type ApiContext, type UpstreamHealth } from '../context.js';
import { ErrorSchema, errorsOf } from '../schemas/common.js';
import { HealthSchema, ProbeSchema, StatusSchema } from '../schemas/discovery.js';
import type { DatastoreStatus } from '../../store/store-health.js';
import { COMPONENT_DEADLINE_MS, DeadlineProbe, within } from '../deadline.js';

/**
 * How the datastore is doing: a read (ping) now, and whether writes work (tried again while they
 * fail), each within the deadline: a database that holds the ping (every connection stalled) is
 * disconnected for its clients, whose reads it holds the same way.
 */
async function datastoreState(
  ctx: ApiContext,
  probe: { lastWriteCheck: number; ping: DeadlineProbe<number> },
  deadlineMs: number,
): Promise<{ status: DatastoreStatus; latency: number | null }> {
  const started = performance.now();
  const latency = await probe.ping.check(deadlineMs);
  const health = ctx.store.health;
  // A ping only reads: while writes are failing, one small write (at most once a second, whoever
  // asks) is what tells that the disk or the database takes writes again.
  if (latency !== null && health.writesFailing && ctx.now() - probe.lastWriteCheck >= 1000) {
    probe.lastWriteCheck = ctx.now();
    await within(ctx.store.checkWrites(), Math.max(1, deadlineMs - (performance.now() - started)));
  }
  if (latency === null) return { status: 'disconnected', latency };
  return { status: health.status, latency };
}

export function pipelineState(
  ctx: ApiContext,
  upstream: UpstreamHealth | null = null,
): { status: 'active' | 'stale'; secondsAgo: number } {
  const now = ctx.now();
  const last = ctx.freshness.lastChangeAt() ?? ctx.startedAt;
  const secondsAgo = Math.max(0, Math.floor((now - last) / 1000));
  const { live } = ctx.readModel.counts();
  const limit = ctx.settings.pipelineStaleSeconds;
  // Live games are expected to change constantly: silence while games are live means a stuck feed.
  if (live > 0 && secondsAgo > limit) return { status: 'stale', secondsAgo };
  // An upstream that refuses the key or whose budget is spent sends nothing more until an operator
  // acts; one failing for longer than the same limit is as stuck (its last good state is still served).
  if (upstream !== null) {
    const failingFor = upstream.last_success_seconds_ago ?? Math.floor((now - ctx.startedAt) / 1000);
    if (upstream.state === 'unauthorized' || upstream.state === 'budget_exhausted')
      return { status: 'stale', secondsAgo };
    if ((upstream.state === 'backing_off' || upstream.state === 'starting') && failingFor > limit)
      return { status: 'stale', secondsAgo };
  }
  return { status: 'active', secondsAgo };
}

export function operationRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  // When health last tried a write while writes were failing; the one ping in flight.
  const probe = { lastWriteCheck: 0, ping: new DeadlineProbe(() => ctx.store.ping()) };
  return async (app) => {
    app.get(
      '/v1/health',
      {
        // 2/s and 120/h per caller, never counted toward the quota.
        config: { metering: 'caller' },
        schema: {
          operationId: 'getHealth',
          tags: ['service'],
          summary: 'Health of the datastore and the data pipeline; 503 when degraded',
          response: {
            200: HealthSchema,
            ...errorsOf(401, 429),
            503: Type.Union([HealthSchema, ErrorSchema], {
              description: 'degraded (Health), or shutting down (Error)',
            }),
          },
        },
      },
      async (_request, reply) => {
        // Every component at once, each within its deadline: health answers in about a second
        // whatever a component does, and a component that holds it is reported down.
        const [datastore, counters] = await Promise.all([
          datastoreState(ctx, probe, COMPONENT_DEADLINE_MS),
          ctx.usage.status?.(COMPONENT_DEADLINE_MS),
        ]);
        const upstream = ctx.upstream?.() ?? null;
        const pipeline = pipelineState(ctx, upstream);
        // The first failing part, as `component` names it on a 503 error.
        const component =
          datastore.status !== 'connected'
            ? 'datastore'
            : counters === 'disconnected'
              ? 'usage_counters'
              : pipeline.status === 'stale'
                ? 'data_pipeline'
                : undefined;
        const now = ctx.now();
        // Degraded is transient: retry shortly, as every service_unavailable answer says.
        if (component !== undefined) void reply.header('retry-after', '1');
        return reply.code(component === undefined ? 200 : 503).send({
          status: component === undefined ? 'healthy' : 'degraded',
          ...(component !== undefined ? { component } : {}),
          version: API_VERSION,
          uptime_seconds: Math.max(0, Math.floor((now - ctx.startedAt) / 1000)),
          // The client's "now" is the world's (docs/api.md, "Time"); uptime is real time.
          timestamp: new Date(ctx.worldNow()).toISOString(),
          services: {
            datastore: { status: datastore.status, latency_ms: datastore.latency ?? 0 },
            data_pipeline: {
              status: pipeline.status,
              last_update_seconds_ago: pipeline.secondsAgo,
              total_events: ctx.readModel.size,
              ...(upstream !== null ? { upstream } : {}),
            },
            ...(counters !== undefined ? { usage_counters: { status: counters } } : {}),
          },
        });
      },
    );

    app.get(
      '/v1/status',
      {
        config: { access: 'public', metering: 'caller' },
        schema: {
          operationId: 'getStatus',
          tags: ['service'],
          summary: 'Public API status (no key needed)',
          response: { 200: StatusSchema, ...errorsOf(429, 503) },
        },
      },
      async () => {
        const counts = ctx.readModel.counts();
        const last = ctx.freshness.lastChangeAt() ?? ctx.startedAt;
        return {
          status: ctx.loading?.() === true ? ('starting' as const) : ('operational' as const),
          version: API_VERSION,
          data_freshness_ms: Math.max(0, Math.round(ctx.now() - last)),
          active_sports: counts.activeSports,
          live_events: counts.live,
          prematch_events: counts.prematch,
          world_time: new Date(ctx.worldClock.now()).toISOString(),
          world_speed: ctx.worldClock.speed,
        };
      },
    );

    app.get(
      '/livez',
      {
        config: { access: 'public' },
        schema: {
          operationId: 'livez',
          tags: ['operator'],
          summary: 'Liveness probe',
          response: { 200: ProbeSchema, ...errorsOf(503) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: { access: 'public' },
        schema: {
          operationId: 'readyz',
          tags: ['operator'],
          summary: 'Readiness probe: store reachable and read model loaded (a standby pipeline node: 503 standby)',
          response: { 200: ProbeSchema, 503: Type.Union([ProbeSchema, ErrorSchema]), 500: ErrorSchema },
        },
      },
      async (_request, reply) => {
        // A standby pipeline node is alive but takes no traffic: not ready, so a balancer skips it.
        if (ctx.feedRole?.kind === 'candidate' && !ctx.feedRole.leading()) {
          return reply.code(503).send({ status: 'standby' });
        }
        // Ready = the store answers reads: a node whose disk is full still serves reads from memory,
        // and taking it out of the balancer would not make writes work (health says read_only).
        const latency = await probe.ping.check(1000);
        if (latency === null) return reply.code(503).send({ status: 'not_ready' });
        // The built-in world is still arriving: serving now would show 1 sport and 0 live events.
        if (ctx.loading?.() === true) return reply.code(503).send({ status: 'loading' });
        return reply.code(200).send({ status: 'ready' });
      },
    );

    app.get(
      '/metrics',
      {
        config: { access: 'admin' },
        schema: {
          operationId: 'getMetrics',
          tags: ['operator'],
          summary: 'Prometheus metrics (X-Admin-Key)',
          hide: false,
        },
      },
      async (_request, reply) => {
        const text = await ctx.metrics.registry.metrics();
        return reply.type(ctx.metrics.registry.contentType).send(text);
      },
    );
  };
}
