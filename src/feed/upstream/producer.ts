// The small interface every upstream adapter implements: it fetches or listens, and hands on batches of feed messages.
import type { FeedMessage } from '../messages.js';

/** Where a producer's batches go (the composition root wires it to the pipeline through a retrying producer). */
export type FeedSink = (messages: FeedMessage[]) => Promise<void>;

/**
 * An upstream adapter: one folder under src/feed/upstream/ per provider. It turns what the
 * provider says into feed messages (docs/contract/feed.md) and gives them to its sink, nothing else: it never
 * touches the pipeline, the store or the API. docs/architecture.md, "Adding an upstream adapter".
 */
export interface FeedProducer {
  /** Begins polling or listening; returns at once. */
  start(): void;
  /** Stops; resolves once no batch is being produced any more. */
  stop(): Promise<void>;
}

/** What the service logs through (pino's shape, narrowed). */
export interface ProducerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
