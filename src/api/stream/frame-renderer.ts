// The main thread's side of the stream's frame worker: sends a flush's odds frames to be written off the main thread, and gets them back as buffers.
import { Worker } from 'node:worker_threads';
import type { FrameJob, FrameWorkEntry, FrameWorkReply, FrameWorkRequest } from './frame-work.js';

export interface FrameRendererLog {
  warn(obj: object, msg: string): void;
}

/**
 * One worker thread, started at the first flush that needs it and stopped with the hub. A worker
 * that fails rejects what it was writing (the hub then writes those frames itself) and is started
 * again at the next flush; the failure is logged once per worker.
 */
export class FrameRenderer {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: (frames: Buffer[]) => void; reject: (err: Error) => void }>();
  private closed = false;
  /** Flushes whose frames the worker wrote, and those that fell back to the main thread (tests read them). */
  rendered = 0;
  failed = 0;

  constructor(private readonly log?: FrameRendererLog) {}

  /** Each job's frame, in job order. */
  render(entries: FrameWorkEntry[], jobs: FrameJob[]): Promise<Buffer[]> {
    if (this.closed) return Promise.reject(new Error('the frame renderer is closed'));
    const worker = this.worker ?? this.start();
    const seq = ++this.seq;
    return new Promise<Buffer[]>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      const req: FrameWorkRequest = { seq, entries, jobs };
      try {
        worker.postMessage(req);
      } catch (err) {
        this.waiting.delete(seq);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.fail(new Error('the frame renderer is closed'));
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./frame-worker.js', import.meta.url));
    // The stream's sockets keep the process alive, not this thread.
    worker.unref();
    worker.on('message', (reply: FrameWorkReply) => this.onReply(reply));
    let reported = false;
    const broken = (err: Error): void => {
      if (this.worker === worker) this.worker = null;
      if (!reported && !this.closed)
        this.log?.warn(
          { err },
          'the stream frame worker failed: frames are written on the main thread until it restarts',
        );
      reported = true;
      this.fail(err);
    };
    worker.on('error', broken);
    worker.on('exit', (code) => broken(new Error(`the stream frame worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private onReply(reply: FrameWorkReply): void {
    const waiter = this.waiting.get(reply.seq);
    if (waiter === undefined) return;
    this.waiting.delete(reply.seq);
    this.rendered++;
    const frames: Buffer[] = new Array<Buffer>(reply.ends.length);
    let at = 0;
    for (let j = 0; j < reply.ends.length; j++) {
      const end = reply.ends[j] as number;
      // Views of the reply: StreamConnection copies a view of a larger buffer before a socket keeps it.
      frames[j] = Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset + at, end - at);
      at = end;
    }
    waiter.resolve(frames);
  }

  private fail(err: Error): void {
    for (const w of this.waiting.values()) {
      this.failed++;
      w.reject(err);
    }
    this.waiting.clear();
  }
}
