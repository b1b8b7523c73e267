// REST readers of a chaos campaign: a few loops per API node reading events, odds, results and settlements of the campaign's games, every answer recorded.
import { Rng } from '../src/feed/simulator/rng.js';
import { DEMO_KEY, type Node } from './deployment.js';
import type { History } from './history.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** GET with the demo key: the status (0 when unreachable) and the parsed body (null when not JSON). */
export async function getJson<T>(
  base: string,
  path: string,
  timeoutMs = 10_000,
): Promise<{ status: number; body: T | null; text: string; retryAfter: boolean }> {
  try {
    const res = await fetch(`${base}${path}`, {
      headers: { 'x-api-key': DEMO_KEY },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: T | null = null;
    try {
      body = JSON.parse(text) as T;
    } catch {
      // not JSON
    }
    return { status: res.status, body, text, retryAfter: res.headers.get('retry-after') !== null };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, body: null, text: cause?.code ?? cause?.message ?? (err as Error).message, retryAfter: false };
  }
}

/** One reader: GETs on `node` until `stopped()`, a pause of 40-120 ms between them. */
export async function readLoop(
  h: History,
  node: Node,
  seed: number,
  ids: () => readonly string[],
  stopped: () => boolean,
): Promise<void> {
  const rng = Rng.derive(seed, 'reader', node.name, h.streams.length + h.answers.length);
  while (!stopped()) {
    const known = ids();
    const id = known.length > 0 ? rng.pick(known) : 'none';
    const paths = [
      `/v1/events/${id}`,
      `/v1/events/${id}/odds`,
      `/v1/events/${id}/result`,
      `/v1/settlements?event_id=${id}`,
      '/v1/events?league=chaos-league&limit=50',
      '/v1/scores?limit=50',
      '/v1/settlements?limit=20',
    ];
    const path = rng.pick(paths);
    const r = await getJson(node.base, path);
    h.answers.push({
      at: h.now(),
      node: node.name,
      path: path.replace(id, '{id}'),
      status: r.status,
      retryAfter: r.retryAfter,
      ...(r.status >= 500 || r.status === 0 ? { body: r.text.slice(0, 300) } : {}),
    });
    await sleep(rng.int(40, 120));
  }
}
