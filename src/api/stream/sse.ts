// Server-Sent Events framing: one event is `id`, `event` and one `data` line, then a blank line.

/** One event's bytes. `data` is one line of JSON (JSON text has no raw newlines). */
export function sseFrame(name: string, data: string, id: string | null): Buffer {
  return Buffer.from(`${id === null ? '' : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`);
}

/** The response head of a stream: no caching or transforming proxies, no buffering in nginx. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** Sent first: how long EventSource waits before reconnecting (ms), and a comment that flushes the head. */
export const SSE_PREAMBLE = 'retry: 2000\n: connected\n\n';
