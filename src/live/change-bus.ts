// The change bus: the pipeline publishes what changed; the stream, settlement and scale-out subscribe.
import { EventEmitter } from 'node:events';

export type ChangeKind =
  'fixture' | 'markets' | 'odds' | 'status' | 'score' | 'result' | 'stats' | 'evicted' | 'settlement';

export interface Change {
  kind: ChangeKind;
  eventId: string;
  /** Epoch ms at which the change was applied. */
  at: number;
}

export interface ChangeBus {
  publish(change: Change): void;
  /** Returns a function that unsubscribes. */
  subscribe(listener: (change: Change) => void): () => void;
}

/** In-process bus; a Redis-backed bus implements the same interface when scaled out. */
export class LocalChangeBus implements ChangeBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(change: Change): void {
    this.emitter.emit('change', change);
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
