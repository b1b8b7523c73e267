// Resuming stream clients of a chaos campaign: each reads GET /v1/stream on its node and, when the stream ends, resumes on the next API node with the last id it saw; every event recorded.
import { createParser } from 'eventsource-parser';
import { DEMO_KEY, type Node } from './deployment.js';
import type { History, StreamClientHistory } from './history.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Reads until `signal` aborts; starts on `nodes[first]` and moves on round-robin after each end. */
export async function streamClient(
  h: History,
  name: string,
  nodes: readonly Node[],
  first: number,
  signal: AbortSignal,
): Promise<StreamClientHistory> {
  const record: StreamClientHistory = { name, events: [], connects: 0, refusals: {} };
  h.streams.push(record);
  let lastId: string | null = null;
  let i = first;
  while (!signal.aborted) {
    const node = nodes[i % nodes.length] as Node;
    i++;
    // One controller per connection, tied to the campaign's: fetch leaves its listener on the signal it is given.
    const conn = new AbortController();
    const onAbort = (): void => conn.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const headers: Record<string, string> = { 'x-api-key': DEMO_KEY, accept: 'text/event-stream' };
      if (lastId !== null) headers['last-event-id'] = lastId;
      const res = await fetch(`${node.base}/v1/stream`, { headers, signal: conn.signal });
      if (res.status !== 200 || res.body === null) {
        record.refusals[res.status] = (record.refusals[res.status] ?? 0) + 1;
        await res.body?.cancel();
        await sleep(300);
        continue;
      }
      record.connects++;
      const parser = createParser({
        onEvent(e) {
          const event = e.event ?? 'message';
          if (event === 'heartbeat') return;
          let reason: string | undefined;
          if (event === 'snapshot_required' || event === 'close') {
            try {
              reason = (JSON.parse(e.data) as { reason?: string }).reason;
            } catch {
              reason = 'unparsed';
            }
          }
          record.events.push({
            at: h.now(),
            node: node.name,
            event,
            id: e.id ?? null,
            ...(reason !== undefined ? { reason } : {}),
          });
          if (e.id !== undefined && e.id !== '') lastId = e.id;
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // the node went away, or the campaign ends
    } finally {
      signal.removeEventListener('abort', onAbort);
      conn.abort();
    }
    if (!signal.aborted) await sleep(100);
  }
  return record;
}
