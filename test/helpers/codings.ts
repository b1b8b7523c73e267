// Content-coding and conditional-request tests: a deep event (payloads well over 1 KB), decoding a reply, reading a metric.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ADMIN_KEY, type Reply, type TestService } from './service.js';

/**
 * A markets message with `count` player-prop markets of two outcomes each (selection ids from
 * 1001): ~260 bytes of JSON a market, so 100 markets make an odds payload of ~26 KB.
 */
export function deepMarkets(eventId: string, count: number, odds = 1.9): Record<string, unknown> {
  return {
    type: 'markets',
    event_id: eventId,
    markets: Array.from({ length: count }, (_, i) => ({
      market_id: 100 + i,
      key: `player_goals_p${i + 1}:0.5`,
      name: `Player ${i + 1} goals 0.5`,
      outcomes: [
        { selection_id: 1001 + 2 * i, code: 'over', label: 'Over 0.5', odds },
        { selection_id: 1002 + 2 * i, code: 'under', label: 'Under 0.5', odds: 2 },
      ],
    })),
  };
}

/** The selection id of the "over" outcome of deep market i. */
export const deepOver = (i: number): number => 1001 + 2 * i;

/** Bytes decoded by a Content-Encoding header's value (identity when absent). */
export function decodeBytes(raw: Buffer, coding: unknown): Buffer {
  if (coding === undefined) return raw;
  if (coding === 'br') return brotliDecompressSync(raw);
  if (coding === 'gzip') return gunzipSync(raw);
  throw new Error(`unexpected Content-Encoding ${String(coding)}`);
}

/** A reply's body decoded by its Content-Encoding. */
export function decoded(reply: Reply): Buffer {
  return decodeBytes(reply.raw, reply.headers['content-encoding']);
}

/** A body decoded by its Content-Encoding, as UTF-8 text (an empty body stays empty). */
export function decodedText(raw: Buffer, coding: unknown): string {
  return raw.length === 0 ? '' : decodeBytes(raw, coding).toString('utf8');
}

/** The tokens of a list header (Vary), lower-cased. */
export function tokens(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');
}

/** The value of an unlabelled sample of GET /metrics. */
export async function metric(svc: TestService, name: string): Promise<number> {
  const res = await svc.get('/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const line = res.text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no metric ${name}`);
  return Number(line.slice(name.length + 1));
}
