// Lingering close (RFC 9112 9.6): an answer sent before the request's body was read reaches the client before its connection closes.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long, and how much more, the service reads and drops of a body it answered early before it
 * closes the connection anyway: long enough for any client to read its answer (nginx lingers 30 s
 * at most, Apache 30 s), short and small enough that a client sending forever costs little.
 */
export const LINGER = { ms: 10_000, bytes: 64 * 1024 * 1024 } as const;

const lingering = new WeakSet<Socket>();

/** Whether the request still has body bytes on their way: it declares a body the parser has not seen the end of. */
export function bodyStillComing(req: IncomingMessage): boolean {
  // Strictly false: Node's IncomingMessage starts false and turns true at the body's end; an
  // injected request (tests, light-my-request) has no such field and no network under it.
  if ((req.complete as boolean | undefined) !== false) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Why: an answer to a body the service will not read (too large, or refused before it was read)
 * closes the connection, or the rest of the body would be read as the next request. Node closes it
 * as soon as the answer is written; the client is then still sending, the closed socket answers
 * its next bytes with a reset, and the client's kernel drops the answer it had not yet read
 * (EPIPE and no status, on a quiet machine). Instead the service ends its side after the answer
 * (FIN), keeps reading and dropping what the client still sends (Node's parser discards the body
 * of an answered request), and closes once the client is done, or after LINGER's time or bytes.
 */
export function lingerBeforeClose(req: IncomingMessage, bounds: { ms: number; bytes: number } = LINGER): void {
  const socket = req.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node's server calls destroySoon() once the answer of a `Connection: close` exchange is written.
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.writable) this.end();
    const startBytes = this.bytesRead;
    const stop = (): void => {
      clearInterval(watch);
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(stop, bounds.ms);
    const watch = setInterval(() => {
      if (this.bytesRead - startBytes > bounds.bytes) stop();
    }, 50);
    timer.unref();
    watch.unref();
    // The client has sent everything and closed its side: nothing more to drop.
    this.once('end', stop);
    this.once('close', () => {
      clearInterval(watch);
      clearTimeout(timer);
    });
    // Reading goes on: a paused request would leave the client's bytes unread (and reset at close).
    if (req.readableFlowing !== true) req.resume();
  };
}
