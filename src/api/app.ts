// Builds the Fastify app: error mapping, access control, metrics, OpenAPI, and every route plugin.
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ServiceError } from '../domain/errors.js';
import { logControllerFor } from './access-log.js';
import { accessOf, type ApiContext } from './context.js';
import { installContentCoding } from './content-coding.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './errors.js';
import { installJsonParser } from './json-body.js';
import { bodyStillComing, lingerBeforeClose } from './lingering-close.js';
import { secretsEqual } from './keys.js';
import { installMetering } from './quota/metering.js';
import { installOpenApi } from './openapi.js';
import { badlyEncodedParameter } from './query-encoding.js';
import { adminFeedRoutes } from './routes/admin-feed.js';
import { betRoutes } from './routes/bets.js';
import { discoveryRoutes } from './routes/discovery.js';
import { eventRoutes } from './routes/events.js';
import { historyRoutes } from './routes/history.js';
import { liveRoutes } from './routes/live.js';
import { logoRoutes, type LogoSource } from './routes/logo.js';
import { operationRoutes } from './routes/operations.js';
import { outrightSettlementRoutes } from './routes/outright-settlements.js';
import { outrightRoutes } from './routes/outrights.js';
import { settlementRoutes } from './routes/settlements.js';
import { STREAM_ROUTE, streamRoutes } from './routes/stream.js';
import { rootRoutes } from './routes/root.js';
import { usageRoutes } from './routes/usage.js';
import { webhookRoutes } from './routes/webhooks.js';
import { cachedSerializerFactory } from './serializers.js';
import { splitValidatorFactory } from './validators.js';
import { installWorldTime } from './world-time.js';

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'] | false;
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  logos?: LogoSource;
  /** The developer portal, mounted at /portal (given by the composer: the portal builds on the api, not the reverse). */
  portal?: FastifyPluginAsync;
}

/** A hop count becomes the function Fastify's types ask for (the same test Fastify applies to a number). */
function trustProxyOption(
  value: boolean | number | string,
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** CORS for browser apps on the configured origins (decisions.md): reads, bet checks and their headers. */
function corsOptions(origins: '*' | readonly string[]): Parameters<typeof cors>[1] {
  return {
    // An exact list is matched as given and the allowed origin reflected (with Vary: Origin).
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['X-API-Key', 'Content-Type', 'If-None-Match', 'Last-Event-ID'],
    exposedHeaders: [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'X-World-Time',
      'ETag',
    ],
    // Browsers may keep a preflight's answer for 10 minutes instead of asking before every call.
    maxAge: 600,
    // A bare OPTIONS (no Origin) is answered like a preflight rather than with a non-JSON 400.
    strictPreflight: false,
  };
}

export async function buildApp(ctx: ApiContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const logController = logControllerFor(ctx.settings.accessLog, opts.loggerInstance);
  const app = Fastify({
    ...(opts.loggerInstance !== undefined ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    // One access line per request (ACCESS_LOG, at info) instead of Fastify's two; errors are logged either way.
    logController,
    bodyLimit: ctx.settings.bodyLimitBytes,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Our own onRequest check answers during shutdown, with the {error, message, component} body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The client address (per-caller limits of /v1/status) behind a load balancer: TRUST_PROXY.
    trustProxy: trustProxyOption(ctx.settings.trustProxy),
    // JSON bodies are validated as sent; query strings, path and headers are text and are coerced.
    // Response serializers are compiled once per process, whatever the number of apps built in it.
    schemaController: {
      compilersFactory: { buildValidator: splitValidatorFactory(), buildSerializer: cachedSerializerFactory() },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app);
  installJsonParser(app);
  // An answer given before the body was read in full (too large, refused early) closes the
  // connection without resetting it under a client still sending: lingering close.
  app.addHook('onSend', async (request, reply, payload) => {
    if (bodyStillComing(request.raw)) {
      void reply.header('connection', 'close');
      lingerBeforeClose(request.raw);
    }
    return payload;
  });

  // Before the key check: a browser needs the CORS headers on a 401 or 429 too to read its body.
  if (ctx.settings.corsOrigins !== null) await app.register(cors, corsOptions(ctx.settings.corsOrigins));

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // Broken percent-encoding in the query string is the client's mistake, named (after the key
  // check, like every other query error).
  app.addHook('preValidation', async (request) => {
    const bad = badlyEncodedParameter(request.raw.url ?? '');
    if (bad !== null) {
      throw new ServiceError('bad_request', `query parameter '${bad}' is not valid percent-encoding (UTF-8)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    if (closing) {
      throw new ServiceError('service_unavailable', 'the service is shutting down; retry on another node or shortly', {
        component: 'api',
      });
    }
    const url = request.routeOptions.url;
    if (url === undefined) return; // unknown route: the not-found handler answers
    const access = accessOf(url, request.routeOptions.config.access);
    if (access === 'public') return;
    if (access === 'admin') {
      const given = request.headers['x-admin-key'];
      const expected = ctx.settings.adminKey;
      // Off is one behaviour for every admin route (the feed, /metrics): not there, and why.
      if (expected === null) {
        throw new ServiceError('not_found', 'admin routes are off on this service: set ADMIN_KEY to enable them');
      }
      if (typeof given !== 'string' || !secretsEqual(given, expected)) {
        throw new ServiceError('unauthorized', 'admin routes need a valid X-Admin-Key header');
      }
      return;
    }
    // Browsers' EventSource cannot send headers: the stream also takes the key as `api_key=`.
    const stream = url === STREAM_ROUTE;
    const given =
      request.headers['x-api-key'] ??
      (stream ? (request.query as { api_key?: string } | undefined)?.api_key : undefined);
    if (stream && (given === undefined || given === '')) {
      throw new ServiceError(
        'unauthorized',
        'missing API key: send it in the X-API-Key header or the api_key= query parameter (EventSource)',
      );
    }
    const record = await ctx.keys.authenticate(given);
    request.apiKeyId = record.id;
    request.apiKey = record;
  });
  installMetering(app, ctx);
  installWorldTime(app, ctx.worldClock);
  // JSON of 1 KB or more in br or gzip, and ETags of reads not cached (cached payloads code and tag themselves).
  installContentCoding(app);

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    ctx.metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    // An open stream's minutes or hours are not request latency (the stream_* metrics cover them).
    if (route !== STREAM_ROUTE || reply.statusCode !== 200)
      ctx.metrics.latency.observe({ route }, reply.elapsedTime / 1000);
  });
  /**
   * A stream its client closed: Fastify runs onResponse and the access log only for responses that
   * finish (or fail), and an event stream's usually ends by the client going away.
   */
  const streamEnded = (request: FastifyRequest, reply: FastifyReply): void => {
    ctx.metrics.requests.inc({ route: STREAM_ROUTE, method: request.method, status: String(reply.statusCode) });
    logController.requestCompleted(null, request, reply);
  };

  await installOpenApi(app, ctx.settings);

  await app.register(operationRoutes(ctx));
  // A pipeline node (ROLE=pipeline) holds no read model for clients: probes, metrics and the feed only.
  const servesReads = ctx.settings.servesReads;
  if (servesReads) {
    await app.register(eventRoutes(ctx));
    await app.register(historyRoutes(ctx));
    await app.register(liveRoutes(ctx));
    await app.register(discoveryRoutes(ctx));
    await app.register(settlementRoutes(ctx));
    await app.register(outrightRoutes(ctx));
    await app.register(outrightSettlementRoutes(ctx));
    await app.register(betRoutes(ctx));
    await app.register(usageRoutes(ctx));
    if (ctx.webhooks !== undefined) await app.register(webhookRoutes(ctx, ctx.webhooks));
    await app.register(streamRoutes(ctx, { ended: streamEnded }));
    await app.register(logoRoutes(opts.logos));
  }
  // Registered whatever ADMIN_KEY says (documented, answering 404 while off: see the onRequest hook).
  await app.register(adminFeedRoutes(ctx));
  if (servesReads && opts.portal !== undefined) await app.register(opts.portal, { prefix: '/portal' });
  if (servesReads) await app.register(rootRoutes({ portal: opts.portal !== undefined }));

  return app;
}
