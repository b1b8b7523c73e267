// Child process of the stream section: holds many SSE clients, reads every frame, notes stamps' arrival, and records frames for the raw replay.
import { writeFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { StreamClientSpec } from './stream-mix.js';
import { decodeStamp, stampText } from './stream-stamp.js';

export interface RecordPlan {
  dir: string;
  /** Frames arriving in [fromMs, fromMs + buckets × bucketMs) (wall clock) are kept, by bucket; fromMs is the window's start. */
  fromMs: number;
  bucketMs: number;
  buckets: number;
}

export type ClientsCommand =
  | {
      cmd: 'open';
      target: 'service' | 'raw';
      baseUrl: string;
      apiKey: string;
      specs: StreamClientSpec[];
      record: RecordPlan | null;
    }
  | { cmd: 'window'; fromMs: number; toMs: number }
  | { cmd: 'report' }
  | { cmd: 'close' };

export interface KindFigures {
  clients: number;
  bytes: number;
  events: number;
  oddsEvents: number;
  conflated: number;
  stamps: number;
}

export type ClientsReply =
  | { kind: 'opened'; failures: string[] }
  | {
      kind: 'report';
      byKind: Record<string, KindFigures>;
      /** Stamps that arrived in the window: code, arrival (wall ms), pairs. */
      stamps: number[];
      closedEarly: number;
      closeReasons: string[];
      cpuSeconds: number;
    }
  | { kind: 'closed' };

const now = (): number => performance.timeOrigin + performance.now();

class Client {
  req: ClientRequest | null = null;
  private pending = '';
  private readonly decoder = new StringDecoder('utf8');
  bytes = 0;
  events = 0;
  oddsEvents = 0;
  conflated = 0;
  stamps: number[] = [];
  ended = false;
  closeReason: string | null = null;
  recorded: string[][] | null = null;

  constructor(
    readonly spec: StreamClientSpec,
    private readonly window: { fromMs: number; toMs: number },
    private readonly record: RecordPlan | null,
  ) {
    if (record !== null) this.recorded = Array.from({ length: record.buckets }, () => []);
  }

  open(url: string, headers: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
      this.req = req;
      req.on('response', (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => reject(new Error(`${url} answered ${res.statusCode}: ${body.slice(0, 200)}`)));
          return;
        }
        res.on('data', (c: Buffer) => this.onData(c));
        res.on('end', () => (this.ended = true));
        res.on('error', () => (this.ended = true));
        resolve();
      });
      req.on('error', (err) => {
        this.ended = true;
        reject(err);
      });
      req.end();
    });
  }

  private onData(chunk: Buffer): void {
    const t = now();
    const inWindow = t >= this.window.fromMs && t < this.window.toMs;
    if (inWindow) this.bytes += chunk.length;
    this.pending += this.decoder.write(chunk);
    let start = 0;
    for (;;) {
      const end = this.pending.indexOf('\n\n', start);
      if (end < 0) break;
      const frame = this.pending.slice(start, end);
      start = end + 2;
      this.onFrame(frame, t, inWindow);
    }
    this.pending = start === 0 ? this.pending : this.pending.slice(start);
  }

  private onFrame(frame: string, t: number, inWindow: boolean): void {
    // Comments (": connected") and the retry line are not events.
    if (frame.startsWith(':') || frame.startsWith('retry:')) return;
    const rec = this.record;
    if (rec !== null && this.recorded !== null && t >= rec.fromMs) {
      const b = Math.floor((t - rec.fromMs) / rec.bucketMs);
      if (b < rec.buckets) this.recorded[b]!.push(frame);
    }
    if (frame.includes('event: close\n')) this.closeReason = frame.slice(frame.indexOf('data: ') + 6);
    if (!inWindow) return;
    this.events++;
    if (!frame.includes('event: odds\n')) return;
    this.oddsEvents++;
    if (frame.includes('"conflated":true')) this.conflated++;
    const text = stampText(frame);
    if (text === null) return;
    const code = decodeStamp(text, this.spec.format);
    if (code === null) return;
    this.stamps.push(code, t);
  }

  /** The recorded frames as the raw server replays them: one file of bytes, and each bucket's length. */
  writeRecording(dir: string): void {
    if (this.recorded === null) return;
    const parts = this.recorded.map((frames) => Buffer.from(frames.map((f) => `${f}\n\n`).join('')));
    writeFileSync(join(dir, `${this.spec.id}.bin`), Buffer.concat(parts));
    writeFileSync(join(dir, `${this.spec.id}.json`), JSON.stringify(parts.map((p) => p.length)));
    this.recorded = null;
  }

  close(): void {
    this.req?.destroy();
  }
}

let clients: Client[] = [];
const window = { fromMs: Infinity, toMs: Infinity };
let recordPlan: RecordPlan | null = null;
let cpuAtWindow = process.cpuUsage();

function reply(m: ClientsReply): void {
  process.send?.(m);
}

async function onCommand(c: ClientsCommand): Promise<void> {
  switch (c.cmd) {
    case 'open': {
      window.fromMs = window.toMs = Infinity;
      recordPlan = c.record === null ? null : { ...c.record, fromMs: Infinity };
      clients = c.specs.map((s) => new Client(s, window, recordPlan));
      const failures: string[] = [];
      // A few at a time: a thousand simultaneous connects overflow the listen backlog.
      for (let i = 0; i < clients.length; i += 25) {
        const batch = clients.slice(i, i + 25);
        const results = await Promise.allSettled(
          batch.map((cl) =>
            c.target === 'service'
              ? cl.open(`${c.baseUrl}/v1/stream?${cl.spec.query}`, { 'x-api-key': c.apiKey })
              : cl.open(`${c.baseUrl}/raw/${cl.spec.id}`, {}),
          ),
        );
        for (const r of results) if (r.status === 'rejected') failures.push(String(r.reason));
      }
      reply({ kind: 'opened', failures: failures.slice(0, 5) });
      return;
    }
    case 'window':
      window.fromMs = c.fromMs;
      window.toMs = c.toMs;
      if (recordPlan !== null) recordPlan.fromMs = c.fromMs;
      cpuAtWindow = process.cpuUsage();
      return;
    case 'report': {
      const byKind: Record<string, KindFigures> = {};
      const stamps: number[] = [];
      let closedEarly = 0;
      const closeReasons: string[] = [];
      for (const cl of clients) {
        const k = (byKind[cl.spec.kind] ??= {
          clients: 0,
          bytes: 0,
          events: 0,
          oddsEvents: 0,
          conflated: 0,
          stamps: 0,
        });
        k.clients++;
        k.bytes += cl.bytes;
        k.events += cl.events;
        k.oddsEvents += cl.oddsEvents;
        k.conflated += cl.conflated;
        k.stamps += cl.stamps.length / 2;
        for (const x of cl.stamps) stamps.push(x);
        if (cl.ended) closedEarly++;
        if (cl.closeReason !== null && closeReasons.length < 5) closeReasons.push(cl.closeReason);
        if (recordPlan !== null) cl.writeRecording(recordPlan.dir);
      }
      const cpu = process.cpuUsage(cpuAtWindow);
      reply({ kind: 'report', byKind, stamps, closedEarly, closeReasons, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
      return;
    }
    case 'close':
      for (const cl of clients) cl.close();
      clients = [];
      reply({ kind: 'closed' });
      return;
  }
}

process.on('message', (m: ClientsCommand) => {
  onCommand(m).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
