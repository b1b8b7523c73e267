// The developer portal at /portal: a Fastify plugin with server-rendered pages, its own HTML errors, form parsing and sign-in scope.
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HTTP_STATUS } from '../api/errors.js';
import { ServiceError } from '../domain/errors.js';
import { assetUrls, loadAssets, type Asset } from './assets.js';
import { createPortalContext, field, type PortalContext } from './context.js';
import { parseCookies, SESSION_COOKIE } from './cookies.js';
import { renderErrorPage } from './layout.js';
import { authPages } from './pages/auth.js';
import { consolePages } from './pages/console.js';
import { explorerPages } from './pages/explorer.js';
import { keyPages } from './pages/keys.js';
import { startPages } from './pages/start.js';
import { usagePages } from './pages/usage.js';
import { webhookPages } from './pages/webhooks.js';
import type { PortalPorts } from './ports.js';
import { checkCsrfToken, checkSameOrigin, PortalError, setPageHeaders } from './security.js';

/** Portal forms are a few short fields. */
const FORM_BODY_LIMIT = 16 * 1024;

const TITLES: Record<number, string> = {
  400: 'Something is wrong with this request',
  401: 'Sign-in needed',
  403: 'Request refused',
  404: 'Page not found',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Service unavailable',
};

function sendErrorPage(
  pctx: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
  err: PortalError,
): FastifyReply {
  if (err.retryAfterSeconds !== undefined) void reply.header('retry-after', String(err.retryAfterSeconds));
  return reply
    .code(err.status)
    .type('text/html; charset=utf-8')
    .send(
      renderErrorPage({
        status: err.status,
        title: err.title,
        message: err.message,
        session: request.portalSession ?? null,
        assets: pctx.assets,
      }),
    );
}

/** Every failure becomes a page: portal errors as they are, service errors with their status, the rest a 500. */
function toPortalError(err: FastifyError | Error, request: FastifyRequest): PortalError {
  if (err instanceof PortalError) return err;
  if (err instanceof ServiceError) {
    const status = HTTP_STATUS[err.code];
    const retry = err.retryAfter === undefined ? undefined : Math.max(1, Math.ceil(err.retryAfter));
    return new PortalError(status, TITLES[status] ?? 'Error', err.message, retry);
  }
  const status = (err as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new PortalError(400, TITLES[400] ?? 'Error', 'The request could not be read. Go back and try again.');
  }
  request.log.error({ err }, 'portal request failed');
  return new PortalError(500, TITLES[500] ?? 'Error', 'The portal could not answer. Try again in a moment.');
}

function serveAsset(assets: Map<string, Asset>, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { file } = request.params as { file: string };
  const asset = assets.get(file);
  if (asset === undefined) throw new PortalError(404, 'Not found', 'There is no such file.');
  const etag = `"${asset.version}"`;
  const versioned = (request.query as Record<string, unknown>).v === asset.version;
  void reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache');
  void reply.header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type(asset.type).send(asset.body);
}

/** The pages behind sign-in: no session → the sign-in page; every POST → same origin and the session's CSRF token. */
function signedInScope(pctx: PortalContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('preHandler', async (request, reply) => {
      const session = await pctx.sessions.resolve(parseCookies(request.headers.cookie).get(SESSION_COOKIE));
      if (session === null) return reply.redirect('/portal', 303);
      request.portalSession = session;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        checkSameOrigin(request, pctx.ports.site);
        checkCsrfToken(field(request.body, '_csrf'), session.csrf);
      }
    });
    keyPages(app, pctx);
    usagePages(app, pctx);
    webhookPages(app, pctx);
    explorerPages(app, pctx);
    consolePages(app, pctx);
  };
}

/** Registered by the app under the `/portal` prefix. */
export function portalPlugin(ports: PortalPorts): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const assets = loadAssets();
    const pctx = createPortalContext(ports, assetUrls(assets));

    // Portal pages are not part of the API: keep them out of the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    app.addHook('onRequest', async (_request, reply) => setPageHeaders(reply));
    app.setErrorHandler((err: FastifyError, request, reply) =>
      sendErrorPage(pctx, request, reply, toPortalError(err, request)),
    );
    app.setNotFoundHandler((request, reply) =>
      sendErrorPage(
        pctx,
        request,
        reply,
        new PortalError(404, TITLES[404] ?? 'Not found', 'There is no such page in the portal.'),
      ),
    );

    app.get('/assets/:file', async (request, reply) => serveAsset(assets, request, reply));
    authPages(app, pctx);
    startPages(app, pctx);
    await app.register(signedInScope(pctx));
  };
}
