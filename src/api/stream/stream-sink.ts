// Where a stream's bytes go: the HTTP response in the process that opened it, or the socket a stream process adopted.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

/** What a stream connection needs of its response (an http.ServerResponse is one). */
export interface StreamSink {
  write(chunk: Buffer | string): boolean;
  end(): void;
  destroy(): void;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  /** Bytes accepted but not yet sent. */
  readonly writableLength: number;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * A response whose head another process already wrote (stream-process.ts hands the socket over
 * mid-response): each write is framed as an HTTP/1.1 chunk when the response was chunked, as the
 * http module would have, and end() writes the last chunk.
 */
export class SocketSink extends EventEmitter implements StreamSink {
  private ended = false;

  constructor(
    private readonly socket: Socket,
    private readonly chunked: boolean,
  ) {
    super();
    socket.on('drain', () => this.emit('drain'));
    socket.on('close', () => this.emit('close'));
    // A reset by the client ends the stream like a close; it is no fault of ours.
    socket.on('error', () => socket.destroy());
  }

  write(chunk: Buffer | string): boolean {
    if (this.ended || this.socket.destroyed) return false;
    if (!this.chunked) return this.socket.write(chunk);
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (length === 0) return true;
    this.socket.cork();
    this.socket.write(`${length.toString(16)}\r\n`);
    this.socket.write(chunk);
    const ok = this.socket.write('\r\n');
    this.socket.uncork();
    return ok;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.socket.destroyed) return;
    if (this.chunked) this.socket.end('0\r\n\r\n');
    else this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  get destroyed(): boolean {
    return this.socket.destroyed;
  }

  get writableEnded(): boolean {
    return this.ended;
  }

  get writableLength(): number {
    return this.socket.writableLength;
  }
}
