// Content codings of JSON answers: Accept-Encoding negotiated once per distinct value, Vary, and the hook for answers not cached.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import vary from 'vary';
import { compress, MIN_CODED_BYTES, type Coding } from '../live/compression.js';
import { entityTag, hashTag, ifNoneMatchHits } from './conditional.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A cacheable read: its 200s carry an ETag and a matching If-None-Match gets a 304 (the OpenAPI
     * document says so). Routes sending a ServedPayload (or a logo) tag their own; for the others
     * this hook tags the JSON bytes with a hash.
     */
    etag?: boolean;
  }
}

/** negotiator 1.x takes a preference order for ties; its published types (0.6) do not know it yet. */
interface EncodingNegotiator {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
}

const AVAILABLE = ['br', 'gzip', 'identity'];
/** When a client accepts both with the same weight, br (smaller at the same speed). */
const PREFERRED = { preferred: AVAILABLE };
const chosen = new Map<string, Coding | null>();
/** Distinct Accept-Encoding values remembered (clients send a handful; a hostile one cannot grow the map). */
const MAX_REMEMBERED = 256;
/** The token x-gzip at the start of a list element. */
const X_GZIP = /(^|,)\s*x-gzip(?=\s*(?:;|,|$))/gi;

/**
 * The coding of an answer to a request with this Accept-Encoding: br or gzip (x-gzip too) as its q-values,
 * `identity` and `*` allow (negotiator, RFC 9110 12.5.3), else null (identity). With no
 * acceptable coding at all (`identity;q=0` alone) the answer is identity too, as RFC 9110 advises.
 */
export function codingFor(acceptEncoding: string | undefined): Coding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  let coding = chosen.get(acceptEncoding);
  if (coding === undefined) {
    // RFC 9110 8.4.1.3: a recipient should take x-gzip for gzip (negotiator does not know it).
    const header = acceptEncoding.replace(X_GZIP, '$1gzip');
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
    const best = (negotiator as unknown as EncodingNegotiator).encoding(AVAILABLE, PREFERRED);
    coding = best === 'br' || best === 'gzip' ? best : null;
    if (chosen.size >= MAX_REMEMBERED) chosen.clear();
    chosen.set(acceptEncoding, coding);
  }
  return coding;
}

/** Adds Accept-Encoding to the answer's Vary, keeping what is there (Origin, from CORS). */
export function varyOnCoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const text = current === undefined ? '' : Array.isArray(current) ? current.join(', ') : String(current);
  void reply.header('vary', vary.append(text, 'Accept-Encoding'));
}

/** The coding for an answer of `size` bytes to `request` (JSON under 1 KB is never coded). */
export function codingOf(request: FastifyRequest, size: number): Coding | null {
  return size >= MIN_CODED_BYTES ? codingFor(request.headers['accept-encoding']) : null;
}

/** Whether the request's If-None-Match names this ETag (the answer is then a 304 with no body). */
export function isNotModified(request: FastifyRequest, etag: string): boolean {
  return ifNoneMatchHits(request.headers['if-none-match'], etag);
}

function isJson(type: unknown): boolean {
  return typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(type);
}

/**
 * Codes and tags the JSON answers that are not cached payloads (sports, leagues, settlements,
 * results, errors…): compressed per request, ETag from a hash of the bytes on routes marked
 * `etag`. Answers sent with a ServedPayload already carry their ETag (and coding) and pass
 * through, as does anything not JSON: text/event-stream is never buffered or compressed here.
 * Why not @fastify/compress: the ETag of a coded answer depends on its coding and must be known
 * before the 304 test, so one negotiation has to decide both (docs/api.md, "Compression").
 */
export function installContentCoding(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.hasHeader('etag') || reply.hasHeader('content-encoding')) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (!isJson(reply.getHeader('content-type'))) return done(null, payload);
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    const coding = codingOf(request, size);
    if (size >= MIN_CODED_BYTES) varyOnCoding(reply);
    if (reply.statusCode === 200 && request.routeOptions.config.etag === true) {
      const etag = entityTag(hashTag(payload), coding);
      void reply.header('etag', etag);
      if (isNotModified(request, etag)) {
        void reply.code(304);
        reply.removeHeader('content-type');
        // Fastify's HEAD handler (the next onSend) takes an empty body, not a null one.
        return done(null, request.method === 'HEAD' ? '' : null);
      }
    }
    if (coding === null) return done(null, payload);
    const finish = (out: Buffer): void => {
      void reply.header('content-encoding', coding);
      done(null, out);
    };
    let out: Buffer | Promise<Buffer>;
    try {
      out = compress(coding, typeof payload === 'string' ? Buffer.from(payload) : payload);
    } catch (err) {
      return done(err as Error);
    }
    if (Buffer.isBuffer(out)) return finish(out);
    out.then(finish, (err: Error) => done(err));
  });
}
