// GET /api/logo/{logoId}: public PNG logos (used in <img>), cacheable, the placeholder for unknown ids.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifNoneMatchHits } from '../conditional.js';
import { renderPlaceholderLogo, type PngImage } from '../logo-png.js';

/** Looks up a logo by id; undefined means "no logo": the placeholder is served. */
export type LogoSource = (logoId: string) => PngImage | undefined;

export function logoRoutes(source: LogoSource = () => undefined): FastifyPluginAsyncTypebox {
  const placeholder = renderPlaceholderLogo();
  return async (app) => {
    app.get(
      '/api/logo/:logoId',
      {
        config: { access: 'public', etag: true },
        schema: {
          operationId: 'getLogo',
          tags: ['discovery'],
          summary: 'Team logo PNG (public); unknown ids get the default placeholder',
          params: Type.Object({ logoId: Type.String({ minLength: 1, maxLength: 128 }) }),
        },
      },
      async (request, reply) => {
        const image = source(request.params.logoId) ?? placeholder;
        void reply
          .header('cache-control', 'public, max-age=86400, stale-while-revalidate=604800')
          .header('etag', image.etag)
          .header('access-control-allow-origin', '*');
        // Weak comparison, lists and `*` (RFC 9110 13.1.2), as on every cacheable read.
        if (ifNoneMatchHits(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
        return reply.type('image/png').send(image.bytes);
      },
    );
  };
}
