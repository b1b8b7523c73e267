// GET /: a browser is sent to the portal; any other client gets a small index of where things are.
import type { FastifyPluginAsync } from 'fastify';
import Negotiator from 'negotiator';
import { API_VERSION } from '../context.js';

/**
 * What a person typing the service's address meets. A browser (one that prefers HTML) goes to the
 * portal; curl and API clients get JSON links (relative, so they hold behind any proxy). Not part
 * of the API: hidden from the OpenAPI document, counted against no key.
 */
export function rootRoutes(opts: { portal: boolean }): FastifyPluginAsync {
  return async (app) => {
    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      const html = new Negotiator(request).mediaType(['application/json', 'text/html']) === 'text/html';
      if (html && opts.portal) return reply.redirect('/portal', 302);
      return reply.header('cache-control', 'no-store').send({
        service: 'sports data and settlement API',
        version: API_VERSION,
        links: {
          ...(opts.portal ? { portal: '/portal' } : {}),
          docs: '/docs',
          openapi: '/openapi.json',
          status: '/v1/status',
          health: '/v1/health',
          events: '/v1/events',
        },
      });
    });
  };
}
