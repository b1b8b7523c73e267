// Positions in the change log: `ms-seq` (wall milliseconds, then a counter within them), ordered as a pair.

export interface LogPosition {
  ms: number;
  seq: number;
}

export function compareLogPositions(a: LogPosition, b: LogPosition): number {
  return a.ms - b.ms || a.seq - b.seq;
}

export function formatLogPosition(p: LogPosition): string {
  return `${p.ms}-${p.seq}`;
}

const POSITION = /^(\d{1,15})-(\d{1,9})$/;

/** A position from a client's `Last-Event-ID`, or null when it is not one of ours. */
export function parseLogPosition(text: string): LogPosition | null {
  const m = POSITION.exec(text.trim());
  if (m === null) return null;
  return { ms: Number(m[1]), seq: Number(m[2]) };
}

/** The position just before `p` (what a window that starts at `p` has trimmed through). */
export function positionBefore(p: LogPosition): LogPosition {
  return p.seq > 0 ? { ms: p.ms, seq: p.seq - 1 } : { ms: p.ms - 1, seq: Number.MAX_SAFE_INTEGER };
}
