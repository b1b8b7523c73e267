// The request hooks that apply quotas and rate limits: count, refuse with 429, add the X-RateLimit-* headers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../domain/errors.js';
import { HEALTH_LIMITS, type Plan } from '../../domain/quota.js';
import type { ApiContext } from '../context.js';
import type { QuotaDecision, RateDecision } from './counter.js';

/** What X-RateLimit-Limit says for a plan without a monthly quota: a number clients can still compare. */
export const UNLIMITED_HEADER = Number.MAX_SAFE_INTEGER;

const resetHeaders = new Map<number, string>();

/** Epoch seconds of the month's end, as header text (one string per month, not per request). */
function resetText(resetAt: number): string {
  let text = resetHeaders.get(resetAt);
  if (text === undefined) {
    if (resetHeaders.size > 12) resetHeaders.clear();
    text = String(Math.floor(resetAt / 1000));
    resetHeaders.set(resetAt, text);
  }
  return text;
}

function quotaHeaders(reply: FastifyReply, plan: Plan, d: QuotaDecision): void {
  const limit = plan.perMonth ?? UNLIMITED_HEADER;
  void reply.header('X-RateLimit-Limit', limit);
  void reply.header('X-RateLimit-Remaining', Math.max(0, limit - d.used));
  void reply.header('X-RateLimit-Reset', resetText(d.resetAt));
}

function applyQuota(request: FastifyRequest, reply: FastifyReply, plan: Plan, d: QuotaDecision): void {
  quotaHeaders(reply, plan, d);
  if (d.ok) {
    request.usageCounted = true;
    return;
  }
  const retryAfter = d.retryAfterSeconds;
  if (d.reason === 'quota') {
    throw new ServiceError(
      'rate_limited',
      `monthly quota exhausted: plan ${plan.name} allows ${plan.perMonth} requests per calendar month (UTC); ` +
        `it resets at ${new Date(d.resetAt).toISOString()}`,
      { retryAfter },
    );
  }
  throw new ServiceError(
    'rate_limited',
    `rate limit exceeded: plan ${plan.name} allows ${plan.perSecond} requests per second; retry in ${retryAfter} s`,
    { retryAfter },
  );
}

function applyRate(plan: Plan, d: RateDecision): void {
  if (d.ok) return;
  throw new ServiceError(
    'rate_limited',
    `rate limit exceeded: plan ${plan.name} allows ${plan.perSecond} requests per second; retry in ${d.retryAfterSeconds} s`,
    { retryAfter: d.retryAfterSeconds },
  );
}

function applyCaller(url: string, d: RateDecision): void {
  if (d.ok) return;
  throw new ServiceError(
    'rate_limited',
    `rate limit exceeded: ${url} allows ${HEALTH_LIMITS.perSecond} requests per second and ${HEALTH_LIMITS.perHour} ` +
      `per hour per caller; retry in ${d.retryAfterSeconds} s`,
    { retryAfter: d.retryAfterSeconds },
  );
}

/** The caller of a health/status request: its key when it sends a valid one, else its address. */
async function callerOf(ctx: ApiContext, request: FastifyRequest): Promise<string> {
  if (request.apiKey !== undefined) return `key:${request.apiKey.id}`;
  const raw = request.headers['x-api-key'];
  if (typeof raw === 'string' && raw !== '') {
    try {
      return `key:${(await ctx.keys.authenticate(raw)).id}`;
    } catch {
      // An invalid key on the public /v1/status: limited like a keyless caller.
    }
  }
  return `ip:${request.ip}`;
}

async function meterCaller(ctx: ApiContext, request: FastifyRequest, url: string): Promise<void> {
  const caller = await callerOf(ctx, request);
  // Each endpoint has its own allowance.
  const d = ctx.callerLimits.hit(`${url} ${caller}`, ctx.now());
  applyCaller(url, d instanceof Promise ? await d : d);
}

/** Runs synchronously for in-process counters (no promise on the hot path); a Promise when it must wait. */
function meter(ctx: ApiContext, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
  // routeOptions builds a new object on every read: read it once.
  const route = request.routeOptions;
  const url = route.url;
  if (url === undefined) return undefined;
  const key = request.apiKey;
  const metering = route.config.metering ?? (key !== undefined ? 'counted' : undefined);
  if (metering === undefined) return undefined;
  if (metering === 'caller') return meterCaller(ctx, request, url);
  if (key === undefined) return undefined;
  const plan = ctx.plans.of(key.plan);
  const now = ctx.now();
  if (metering === 'uncounted') {
    const d = ctx.usage.throttle(key.id, plan, now);
    if (d instanceof Promise) return d.then((r) => applyRate(plan, r));
    applyRate(plan, d);
    return undefined;
  }
  if (metering === 'stream') refuseExtraStream(ctx, key.id, plan);
  const d = ctx.usage.consume(key.id, plan, now);
  if (d instanceof Promise) return d.then((r) => applyQuota(request, reply, plan, r));
  applyQuota(request, reply, plan, d);
  return undefined;
}

/**
 * Installs the metering hooks; call after the hook that authenticates (it sets `request.apiKey`).
 * Rejections (401, 429) count nothing; a counted request answered 4xx/5xx also counts as an error.
 */
export function installMetering(app: FastifyInstance, ctx: ApiContext): void {
  app.addHook('onRequest', (request, reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      pending = meter(ctx, request, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (pending === undefined) done();
    else
      pending.then(
        () => done(),
        (err: Error) => done(err),
      );
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (request.usageCounted === true && reply.statusCode >= 400 && request.apiKey !== undefined) {
      ctx.usage.recordError(request.apiKey.id, ctx.now());
    }
    done();
  });
}

/** A stream beyond the plan's open streams: refused before anything is counted. */
function refuseExtraStream(ctx: ApiContext, keyId: string, plan: Plan): void {
  if (plan.streams === null || (ctx.openStreams?.(keyId) ?? 0) < plan.streams) return;
  throw new ServiceError(
    'rate_limited',
    `plan ${plan.name} allows ${plan.streams} open stream${plan.streams === 1 ? '' : 's'} at once per key; close one first`,
    { retryAfter: 5 },
  );
}

/** Counts one more request for a key outside any request (an open stream's next period); false when exhausted. */
export async function chargeKey(ctx: ApiContext, keyId: string, planName: string): Promise<boolean> {
  const d = await ctx.usage.consume(keyId, ctx.plans.of(planName), ctx.now());
  return d.ok;
}
