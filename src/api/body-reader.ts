// Reads feed bodies into memory reused from request to request, with the body limit and Content-Length checks.
import type { Readable } from 'node:stream';
import { ServiceError } from '../domain/errors.js';
import { BufferPool } from '../live/buffer-pool.js';

/** Bodies smaller than this are not worth keeping. */
const KEEP_MIN_BYTES = 64 * 1024;

/**
 * Why: a live feed posts a body every few hundred ms (3.3 MB for 100,000 changes). Read the usual
 * way, each body is new memory outside the JS heap that lives through its whole apply; enough of
 * them outlived two young-generation collections to add up to the ~64 MB after which V8 starts a
 * full collection, every few seconds, each stalling a tick. A body's memory goes back to a pool
 * once its request has been answered (`give`) and serves a later body; bodies that overlap get
 * memory of their own.
 */
export class BodyReader {
  private readonly memory: BufferPool;

  constructor(private readonly limitBytes: number) {
    this.memory = new BufferPool(limitBytes);
  }

  /** Reads the whole body; rejects with a client error when it is too large or not as declared. */
  read(payload: Readable, declaredLength: string | undefined): Promise<Buffer> {
    const declared = declaredLength === undefined ? null : Number(declaredLength);
    if (declared !== null && (!Number.isSafeInteger(declared) || declared < 0)) {
      return Promise.reject(new ServiceError('bad_request', 'Content-Length does not match the body'));
    }
    if (declared !== null && declared > this.limitBytes) {
      payload.resume(); // drained, so the connection can answer
      return Promise.reject(new ServiceError('bad_request', 'request body is too large'));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const target = declared === null ? null : this.take(declared);
      const chunks: Buffer[] = [];
      let received = 0;
      let failed = false;
      const fail = (err: ServiceError): void => {
        if (failed) return;
        failed = true;
        payload.removeListener('data', onData);
        payload.resume();
        if (target !== null) this.give(target);
        reject(err);
      };
      const onData = (chunk: Buffer): void => {
        if (failed) return;
        if (received + chunk.length > (declared ?? this.limitBytes)) {
          fail(
            new ServiceError(
              'bad_request',
              declared === null ? 'request body is too large' : 'Content-Length does not match the body',
            ),
          );
          return;
        }
        if (target !== null) chunk.copy(target, received);
        else chunks.push(chunk);
        received += chunk.length;
      };
      payload.on('data', onData);
      payload.once('error', () => fail(new ServiceError('bad_request', 'the request body could not be read')));
      payload.once('end', () => {
        if (failed) return;
        if (target === null) return resolve(Buffer.concat(chunks, received));
        if (received !== declared)
          return fail(new ServiceError('bad_request', 'Content-Length does not match the body'));
        resolve(target);
      });
    });
  }

  /** Hands a body back once nothing uses it any more (its request has been answered). */
  give(body: unknown): void {
    if (Buffer.isBuffer(body)) this.memory.give(body);
  }

  /** `length` bytes: pooled memory for a body worth keeping. */
  private take(length: number): Buffer {
    return length < KEEP_MIN_BYTES ? Buffer.alloc(length) : this.memory.take(length);
  }
}
