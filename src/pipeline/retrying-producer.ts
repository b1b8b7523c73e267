// An in-process producer's way into the pipeline (the simulator): batches applied in order, what the store refused sent again until taken.
import { orderKeyOf } from '../feed/order-key.js';
import type { IngressMessage } from '../feed/packed-odds.js';
import type { ApplyOutcome } from './outcome.js';
import { RetryQueue, SYSTEM_RETRY_CLOCK, SYSTEM_RETRY_TIMER, verdictOf, type RetryClock } from './retry-queue.js';

/**
 * Refused messages held at most before the producer is held back (its batches wait, and the
 * simulator's worker stops advancing once its own outbox is full): a store down for a long time
 * costs bounded memory, and nothing is dropped.
 */
export const MAX_HELD_MESSAGES = 10_000;

export interface ProducerLog {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export interface RetryingProducer {
  /** Applies a batch; resolves when it is applied or held for retry (after waiting while too many are held). */
  submit(messages: IngressMessage[]): Promise<void>;
  readonly queue: RetryQueue<IngressMessage>;
  /**
   * Stops waiting at once (call it before stopping the producer, whose last batch may be waiting for
   * room), makes a last retry, and returns how many messages were still refused (lost to this process).
   */
  close(): Promise<number>;
}

export function retryingProducer(
  apply: (messages: IngressMessage[]) => Promise<ApplyOutcome[]>,
  log: ProducerLog,
  clock: RetryClock = SYSTEM_RETRY_CLOCK,
): RetryingProducer {
  const queue = new RetryQueue<IngressMessage>({
    deliver: async (messages) => (await apply(messages)).map(verdictOf),
    keyOf: orderKeyOf,
    clock,
    timer: SYSTEM_RETRY_TIMER,
    maxHeld: MAX_HELD_MESSAGES,
    onHeldChange: (held, counts) => {
      if (held > 0) log.warn({ held, ...counts }, 'feed messages refused for now (the store cannot commit): retrying');
      else (log.info ?? log.warn).call(log, { ...counts }, 'every refused feed message has been accepted');
    },
  });
  return {
    queue,
    submit: (messages) => queue.submit(messages),
    async close() {
      queue.halt();
      await queue.retryNow();
      const left = await queue.stop();
      if (left.length > 0) {
        // An event whose result is among them stays open in the store: the simulator's next start
        // sends how it ended (see docs/simulator.md).
        log.warn({ left: left.length }, 'feed messages still refused at shutdown were dropped');
      }
      return left.length;
    },
  };
}
