// A stream client that keeps the state a real client would (prices and scores from snapshot=true and what follows), starting again on snapshot_required.
import { SseClient, type SseEvent } from './sse.js';

interface MarketJson {
  outcomes: Array<{ selection_id: number; odds: number; is_locked: boolean }>;
}

/** What a client knows: per event, each selection's price and lock, and the score. */
export type ClientState = Map<string, { prices: Map<number, string>; score: string | null }>;

export class StateClient {
  state: ClientState = new Map();
  /** The snapshot_required events it was sent (each made it start again). */
  readonly refusals: string[] = [];
  /** Events applied since the last start (for the tests' diagnostics). */
  applied = 0;
  private sse: SseClient | null = null;
  private taken = 0;
  private lastId: string | null = null;
  private pump: NodeJS.Timeout | null = null;
  private base = '';

  constructor(
    private readonly path: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Starts from a snapshot on a node. */
  async open(base: string): Promise<void> {
    this.base = base;
    this.state = new Map();
    await this.connect(`${this.path}&snapshot=true`, this.headers);
  }

  /** Drops the connection (the client keeps its state and last id). */
  drop(): void {
    this.take();
    this.sse?.close();
    this.sse = null;
    if (this.pump) clearInterval(this.pump);
    this.pump = null;
  }

  /** Reconnects to a node with its last id (Last-Event-ID). */
  async resume(base: string): Promise<void> {
    this.base = base;
    await this.connect(
      this.path,
      this.lastId === null ? this.headers : { ...this.headers, 'last-event-id': this.lastId },
    );
  }

  close(): void {
    this.drop();
  }

  /** Takes what has arrived: applies it to the state, and starts again from a snapshot when told to. */
  take(): void {
    const sse = this.sse;
    if (sse === null) return;
    const events = sse.events.slice(this.taken);
    this.taken = sse.events.length;
    for (const e of events) {
      if (e.id !== null) this.lastId = e.id;
      if (e.event === 'snapshot_required') {
        this.refusals.push(String(e.data.reason));
        // A real client drops what it knew and starts again.
        this.drop();
        void this.open(this.base);
        return;
      }
      this.apply(e);
    }
  }

  private async connect(path: string, headers: Record<string, string>): Promise<void> {
    this.sse = await SseClient.connect(this.base, path, headers);
    this.taken = 0;
    this.pump = setInterval(() => this.take(), 5);
  }

  private event(id: string): { prices: Map<number, string>; score: string | null } {
    let s = this.state.get(id);
    if (s === undefined) this.state.set(id, (s = { prices: new Map(), score: null }));
    return s;
  }

  private apply(e: SseEvent): void {
    const id = e.data.event_id;
    if (typeof id !== 'string') return;
    this.applied++;
    const s = this.event(id);
    if (e.event === 'markets') {
      for (const m of e.data.added as MarketJson[]) {
        for (const o of m.outcomes) s.prices.set(o.selection_id, `${o.odds}${o.is_locked ? ' locked' : ''}`);
      }
    } else if (e.event === 'odds') {
      for (const c of e.data.changes as Array<{ selection_id: number; odds: number; is_locked: boolean }>) {
        s.prices.set(c.selection_id, `${c.odds}${c.is_locked ? ' locked' : ''}`);
      }
    } else if (e.event === 'score') {
      s.score = JSON.stringify(e.data.score);
    }
  }
}

/** The state a node serves (REST), in the client's form. */
export async function servedState(
  base: string,
  ids: readonly string[],
  headers: Record<string, string>,
): Promise<ClientState> {
  const out: ClientState = new Map();
  for (const id of ids) {
    const odds = (await (await fetch(`${base}/v1/events/${id}/odds`, { headers })).json()) as { markets: MarketJson[] };
    const detail = (await (await fetch(`${base}/v1/events/${id}`, { headers })).json()) as {
      status: string;
      score: unknown;
    };
    const prices = new Map<number, string>();
    for (const m of odds.markets) {
      for (const o of m.outcomes) prices.set(o.selection_id, `${o.odds}${o.is_locked ? ' locked' : ''}`);
    }
    out.set(id, { prices, score: detail.status === 'prematch' ? null : JSON.stringify(detail.score) });
  }
  return out;
}

/** The state as sorted text, for a readable deepEqual. */
export function stateText(state: ClientState): string[] {
  const out: string[] = [];
  for (const [id, s] of [...state].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`${id} score ${s.score}`);
    for (const [sel, p] of [...s.prices].sort(([a], [b]) => a - b)) out.push(`${id} ${sel} ${p}`);
  }
  return out;
}
