// Latency stamps of the stream section: a tick's number written as one price every client sees, read back from an SSE frame in any odds format.
import type { OddsFormat } from '../src/domain/types.js';

/** Stamps cycle through this many prices (2.00 … 11.99); a tick is found as the latest one sent with the same code. */
export const STAMP_CODES = 1000;
/** The selection that carries the stamp in every live event: the first outcome of its first market (1x2 or moneyline). */
export const STAMP_SELECTION_ID = 1;
/** What precedes the stamp's price in an `odds` frame's data (the service writes changes in this shape). */
export const STAMP_MARKER = `"selection_id":${STAMP_SELECTION_ID},"odds":`;

/** The decimal price that carries tick `seq`: 2.00 + (seq mod 1000) / 100, exact in every format. */
export function stampOdds(seq: number): number {
  return (200 + (((seq % STAMP_CODES) + STAMP_CODES) % STAMP_CODES)) / 100;
}

/**
 * The stamp code (seq mod 1000) of a price as the service rendered it, or null when it is not a
 * stamp price. Decimal: hundredths; American: +(d-1)×100 for d ≥ 2; fractional_exact: the simplest
 * p/q whose 1 + p/q rounds (half up) to the decimal, so the rounding is undone exactly. Fractional
 * on the traditional ladder (`fractional`) rounds many prices to one rung, so it carries no stamp:
 * the bench's fractional clients read `fractional_exact`, which costs the service the same.
 */
export function decodeStamp(text: string, format: OddsFormat): number | null {
  let hundredths: number;
  if (format === 'fractional') return null;
  if (format === 'fractional_exact') {
    const m = /^"(\d+)\/(\d+)"$/.exec(text);
    if (m === null) return null;
    const p = Number(m[1]);
    const q = Number(m[2]);
    if (q === 0) return null;
    hundredths = 100 + Math.floor((200 * p + q) / (2 * q));
  } else {
    const v = Number(text);
    if (text === '' || !Number.isFinite(v)) return null;
    hundredths = format === 'american' ? (v >= 100 ? v + 100 : NaN) : Math.round(v * 100);
  }
  const code = hundredths - 200;
  return Number.isInteger(code) && code >= 0 && code < STAMP_CODES ? code : null;
}

/** The stamp's price text in one `odds` frame (data line included), or null when the frame has no stamp. */
export function stampText(frame: string): string | null {
  const at = frame.indexOf(STAMP_MARKER);
  if (at < 0) return null;
  const from = at + STAMP_MARKER.length;
  const end = frame.indexOf(',', from);
  return end < 0 ? null : frame.slice(from, end);
}

/** When the tick a stamp code names was sent: the latest tick with that code sent at or before `arrivedAt`. */
export class StampClock {
  /** Send times (wall ms) by tick number. */
  private readonly sent: number[] = [];

  record(seq: number, sentAtMs: number): void {
    this.sent[seq] = sentAtMs;
  }

  /** Milliseconds from the producer's send to the client's receipt, or null when no such tick was sent before. */
  latency(code: number, arrivedAtMs: number): number | null {
    // The newest tick number with this code, walking back one cycle at a time.
    let seq = this.sent.length - 1;
    seq -= (((seq - code) % STAMP_CODES) + STAMP_CODES) % STAMP_CODES;
    for (; seq >= 0; seq -= STAMP_CODES) {
      const at = this.sent[seq];
      if (at !== undefined && at <= arrivedAtMs) return arrivedAtMs - at;
    }
    return null;
  }
}
