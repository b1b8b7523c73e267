// Positions across nodes: the leader records the positions its batches' entries took; a replica's replay of a batch takes exactly those.
import type { ChangeLog, LogEntry, LogEntryInput } from './change-log.js';
import type { LogEntryKind } from './log-entry.js';
import { compareLogPositions, formatLogPosition } from './log-position.js';

/** The positions (and kinds, to notice a replay that differs) of the entries one batch produced, in order. */
export interface BatchPositions {
  ms: number[];
  seq: number[];
  kinds: LogEntryKind[];
}

export function emptyBatchPositions(): BatchPositions {
  return { ms: [], seq: [], kinds: [] };
}

/**
 * The leader's side: the entries appended between begin() and end() are one batch's (the
 * pipeline applies batches one at a time, and whatever else appends on a leader, settlement and
 * eviction, waits for the batch to end), so their positions are what replicas must give the
 * entries their replay of that batch produces.
 */
export class PositionRecorder {
  private current: BatchPositions | null = null;

  constructor(log: ChangeLog) {
    log.subscribe((entry) => {
      const c = this.current;
      if (c === null) return;
      c.ms.push(entry.position.ms);
      c.seq.push(entry.position.seq);
      c.kinds.push(entry.kind);
    });
  }

  begin(): void {
    this.current = emptyBatchPositions();
  }

  end(): BatchPositions {
    const out = this.current ?? emptyBatchPositions();
    this.current = null;
    return out;
  }
}

/** How a replay went: matched (the leader's positions taken), or why not. */
export type ReplayOutcome =
  { matched: true; entries: number } | { matched: false; produced: number; expected: number; reason: string };

/**
 * The replica's side: between begin() and end() appends are held back; end() appends them with
 * the leader's positions when they are the same entries (count and kinds, in order), so every
 * node's stream carries the same id for the same change. Otherwise (a replay that diverged, or one
 * a reload already reflected) they are dropped ('drop': the replica's stream must not show ids the
 * leader never gave them) or logged at positions of their own ('keep': a new leader replaying its
 * predecessor's tail, whose own log nobody streams from).
 */
export class LogReplay {
  private held: LogEntryInput[] | null = null;

  constructor(private readonly log: ChangeLog) {}

  begin(): void {
    const held: LogEntryInput[] = [];
    this.held = held;
    this.log.divert((input) => held.push(input));
  }

  /** Ends the replay; `expected` null drops what it produced (a replay that only catches up state). */
  end(expected: BatchPositions | null, onMismatch: 'drop' | 'keep' = 'drop'): ReplayOutcome {
    const held = this.held ?? [];
    this.held = null;
    this.log.divert(null);
    if (expected === null) return { matched: false, produced: held.length, expected: 0, reason: 'quiet' };
    const why = mismatch(this.log, held, expected);
    if (why !== null) {
      if (onMismatch === 'keep') for (const input of held) this.log.append(input);
      return { matched: false, produced: held.length, expected: expected.kinds.length, reason: why };
    }
    for (let i = 0; i < held.length; i++) {
      // The input becomes the entry, as ChangeLog.append does: a copy of its fields would lose what
      // an entry keeps behind accessors (a packed odds entry's changes, decoded on first use).
      const entry = held[i] as LogEntry;
      entry.position = { ms: expected.ms[i] as number, seq: expected.seq[i] as number };
      this.log.accept(entry);
    }
    return { matched: true, entries: held.length };
  }
}

/** Why held entries cannot take these positions, or null. */
function mismatch(log: ChangeLog, held: readonly LogEntryInput[], expected: BatchPositions): string | null {
  if (held.length !== expected.kinds.length)
    return `${held.length} entries where the leader's batch made ${expected.kinds.length}`;
  for (let i = 0; i < held.length; i++) {
    if (held[i]?.kind !== expected.kinds[i])
      return `entry ${i} is '${held[i]?.kind}' where the leader's is '${expected.kinds[i]}'`;
  }
  if (held.length > 0) {
    const first = { ms: expected.ms[0] as number, seq: expected.seq[0] as number };
    if (compareLogPositions(first, log.head) <= 0) {
      return `the leader's position ${formatLogPosition(first)} is not after this log's head ${log.headId}`;
    }
  }
  return null;
}
