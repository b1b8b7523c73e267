// A restarted world never re-sends a different official result: every finished event's result is a function of seed and event.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTerminal } from '../../../src/domain/lifecycle.js';
import type { EventStatus } from '../../../src/domain/types.js';
import type { FeedMessage } from '../../../src/feed/messages.js';
import type { SimConfigInput } from '../../../src/feed/simulator/config.js';
import { Simulator } from '../../../src/feed/simulator/simulator.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-07T10:00:00Z');
const END = START + 30 * HOUR;
const SEED = 77;
/** Where the world is stopped, and where it is started again (the open events handed over). */
const STOPS: [number, number] = [START + 9 * HOUR, START + 20 * HOUR];
const RESTARTS = [START + 9 * HOUR + 40 * 60_000, START + 20 * HOUR + 30 * 60_000];
/**
 * Every sport (tiers 2 and 3 have them all), short horizons, and disruptions far more often than by
 * default. Books are repriced when a game's state changes (a score, a break) and every 10 simulated
 * minutes (ticks between steps too), not every 18 s and minute as at speed 60 by default: results do
 * not depend on the price cadence, and those reprices were most of the CPU.
 */
const CONFIG: SimConfigInput = {
  outrights: false,
  tiers: [2, 3],
  horizonHours: { 1: 12, 2: 12, 3: 12 },
  repriceMs: 10 * 60_000,
  liveTickMs: 10 * 60_000,
  disruptions: {
    walkover: 0.2,
    cancelled: 0.05,
    postponed: 0.05,
    postponedResumeShare: 0.5,
    delayed: 0.1,
    retired: 0.2,
    abandoned: 0.05,
    interrupted: 0.1,
  },
};

interface Official {
  status: string;
  score: string;
  endedAt: string;
  winner: string | null;
}

/** What a consumer holds: each event's status and its official result (the first, and any revision). */
class Consumer {
  readonly status = new Map<string, EventStatus>();
  readonly results = new Map<string, Official>();
  readonly sports = new Map<string, string>();
  revisions: string[] = [];

  apply(messages: readonly FeedMessage[]): void {
    for (const m of messages) {
      if (m.type === 'fixture') {
        if (!this.status.has(m.event_id)) this.status.set(m.event_id, 'prematch');
        this.sports.set(m.event_id, m.sport);
      } else if (m.type === 'status') {
        this.status.set(m.event_id, m.status);
        if (isTerminal(m.status))
          this.record(m.event_id, { status: m.status, score: '', endedAt: m.ts ?? '', winner: null });
      } else if (m.type === 'result') {
        this.status.set(m.event_id, m.status);
        this.record(m.event_id, {
          status: m.status,
          score: JSON.stringify([m.score, m.period_scores ?? null]),
          endedAt: m.ended_at ?? '',
          winner: m.winner ?? null,
        });
      }
    }
  }

  private record(eventId: string, r: Official): void {
    const before = this.results.get(eventId);
    if (before !== undefined && JSON.stringify(before) !== JSON.stringify(r)) this.revisions.push(eventId);
    this.results.set(eventId, before ?? r);
  }

  open(): Map<string, string> {
    return new Map([...this.status].filter(([, s]) => !isTerminal(s)));
  }
}

function run(sim: Simulator, from: number, to: number, step = 5 * 60_000): FeedMessage[] {
  const out: FeedMessage[] = [];
  for (let t = from; t < to; t += step) out.push(...sim.advance(t));
  out.push(...sim.advance(to));
  return out;
}

describe('Simulator restart determinism', () => {
  it('a restart re-sends no result for a finished event, and every result equals the uninterrupted run’s (all sports)', () => {
    // The uninterrupted world: its first hours are also the restarted run's first leg (a world
    // started at START with no open events, stopped at the first stop), so that leg is played once
    // and the same simulator plays on to END for the reference.
    const uninterrupted = new Simulator({ seed: SEED, speed: 60, startAt: START, config: CONFIG });
    const firstLeg = run(uninterrupted, START, STOPS[0]);
    const reference = new Consumer();
    reference.apply(firstLeg);
    reference.apply(run(uninterrupted, STOPS[0], END));

    const consumer = new Consumer();
    let from = START;
    let sentToFinal = 0;
    let heldAcross = 0;
    for (let i = 0; i <= STOPS.length; i++) {
      const to = STOPS[i] ?? END;
      const finalBefore = new Set([...consumer.status].filter(([, s]) => isTerminal(s)).map(([id]) => id));
      const openBefore = consumer.open();
      const messages =
        i === 0
          ? firstLeg
          : run(
              new Simulator({ seed: SEED, speed: 60, startAt: from, config: CONFIG, openEvents: openBefore }),
              from,
              to,
            );
      for (const m of messages) {
        if ('event_id' in m && finalBefore.has(m.event_id)) sentToFinal++;
        if ('event_id' in m && openBefore.has(m.event_id) && (m.type === 'result' || m.type === 'status')) {
          if (m.type === 'result' || isTerminal(m.status)) heldAcross++;
        }
      }
      consumer.apply(messages);
      from = RESTARTS[i] ?? END;
    }

    assert.equal(sentToFinal, 0, 'no message for an event the consumer already holds final');
    assert.deepEqual(consumer.revisions, [], 'no result revised');
    let compared = 0;
    const differ: string[] = [];
    for (const [id, r] of consumer.results) {
      const ref = reference.results.get(id);
      if (JSON.stringify(ref) !== JSON.stringify(r))
        differ.push(`${id}: ${JSON.stringify(r)} ≠ ${JSON.stringify(ref)}`);
      compared++;
    }
    assert.deepEqual(differ.slice(0, 5), [], `${differ.length} results differ from the uninterrupted run`);
    const walkovers = [...consumer.results.values()].filter((r) => r.status === 'walkover').length;
    const early = [...consumer.results.values()].filter((r) => r.status !== 'ended').length;
    assert.ok(compared > 200, `${compared} results compared`);
    assert.ok(walkovers > 5, `${walkovers} walkovers`);
    assert.ok(heldAcross > 0, 'events an earlier run left open ended after a restart');
    const sports = new Set([...consumer.results.keys()].map((id) => consumer.sports.get(id)));
    assert.ok(sports.size >= 18, `results in ${sports.size} sports`);
    console.log(
      `restart determinism: ${compared} results in ${sports.size} sports compared, ${early} ended early (${walkovers} walkovers), ${heldAcross} held open across a restart`,
    );
  });
});
