// The stream section's client processes: the clients spread over a few children (so their CPU is not the service's), driven over IPC.
import { join } from 'node:path';
import type { Child, Children } from './children.js';
import type { ClientsCommand, ClientsReply, KindFigures, RecordPlan } from './stream-clients.js';
import type { StreamClientSpec } from './stream-mix.js';

const CLIENTS_PATH = join(import.meta.dirname, 'stream-clients.js');

export interface PoolReport {
  byKind: Record<string, KindFigures>;
  /** code, arrival (wall ms) pairs, every child's. */
  stamps: number[];
  closedEarly: number;
  closeReasons: string[];
  /** CPU seconds the client processes used in the window. */
  cpuSeconds: number;
}

export class StreamClientPool {
  private readonly procs: Child[] = [];

  constructor(
    private readonly children: Children,
    processes: number,
  ) {
    for (let i = 0; i < processes; i++) {
      this.procs.push(
        children.spawn(`stream-clients-${i}`, process.execPath, [CLIENTS_PATH], {
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        }),
      );
    }
  }

  private ask(child: Child, cmd: ClientsCommand, expect: ClientsReply['kind']): Promise<ClientsReply> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: ClientsReply): void => {
        if (m.kind !== expect) return;
        child.process.off('message', onMessage);
        resolve(m);
      };
      child.process.on('message', onMessage);
      void child.exited.then((how) => reject(new Error(`${child.name} exited (${how}):\n${child.output.toString()}`)));
      child.process.send(cmd);
    });
  }

  /** Opens every client (spread round-robin over the processes); throws if any stream was refused. */
  async open(
    target: 'service' | 'raw',
    baseUrl: string,
    apiKey: string,
    specs: StreamClientSpec[],
    record: RecordPlan | null,
  ): Promise<void> {
    const replies = await Promise.all(
      this.procs.map((p, i) =>
        this.ask(
          p,
          {
            cmd: 'open',
            target,
            baseUrl,
            apiKey,
            specs: specs.filter((_, j) => j % this.procs.length === i),
            record,
          },
          'opened',
        ),
      ),
    );
    const failures = replies.flatMap((r) => (r.kind === 'opened' ? r.failures : []));
    if (failures.length > 0) throw new Error(`stream clients could not connect:\n${failures.join('\n')}`);
  }

  window(fromMs: number, toMs: number): void {
    for (const p of this.procs) p.process.send({ cmd: 'window', fromMs, toMs } satisfies ClientsCommand);
  }

  async report(): Promise<PoolReport> {
    const replies = await Promise.all(this.procs.map((p) => this.ask(p, { cmd: 'report' }, 'report')));
    const out: PoolReport = { byKind: {}, stamps: [], closedEarly: 0, closeReasons: [], cpuSeconds: 0 };
    for (const r of replies) {
      if (r.kind !== 'report') continue;
      for (const [kind, f] of Object.entries(r.byKind)) {
        const k = (out.byKind[kind] ??= { clients: 0, bytes: 0, events: 0, oddsEvents: 0, conflated: 0, stamps: 0 });
        k.clients += f.clients;
        k.bytes += f.bytes;
        k.events += f.events;
        k.oddsEvents += f.oddsEvents;
        k.conflated += f.conflated;
        k.stamps += f.stamps;
      }
      for (const x of r.stamps) out.stamps.push(x);
      out.closedEarly += r.closedEarly;
      out.closeReasons.push(...r.closeReasons);
      out.cpuSeconds += r.cpuSeconds;
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.procs.map((p) => this.ask(p, { cmd: 'close' }, 'closed')));
  }

  async stop(): Promise<void> {
    await Promise.all(this.procs.map((p) => this.children.stop(p)));
  }
}
