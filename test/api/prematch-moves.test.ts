// The simulated world's prematch books move over world hours, and each event's updated_at follows, on the world clock the test drives (the pace of SIM_SPEED=3600).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import { Simulator } from '../../src/feed/simulator/index.js';
import { startService, type TestService } from '../helpers/service.js';

const SPEED = 3600;
const START = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
/** The simulator worker's tick (150 wall ms) at SPEED, in world ms: the world is advanced in such steps. */
const STEP = 150 * SPEED;
/** The simulator worker's largest batch. */
const BATCH = 2_000;

interface Item {
  id: string;
  start_time: string;
  odds: { home: unknown; draw: unknown; away: unknown };
  updated_at: string;
}

describe('prematch books move in the simulated world', () => {
  let svc: TestService;
  let sim: Simulator;
  const rejections: string[] = [];

  /**
   * The world clock is the test's: the service's (injected) clock and the simulator move to `to`
   * together, and what the simulator says happened by then is applied, in batches as the worker
   * sends them. No wall time passes for the world, so a loaded machine only makes it slower.
   */
  async function advanceTo(to: number): Promise<void> {
    for (let t = Math.min(svc.clock.now() + STEP, to); ; t = Math.min(t + STEP, to)) {
      svc.clock.set(t);
      const messages: FeedMessage[] = sim.advance(t);
      for (let i = 0; i < messages.length; i += BATCH) {
        const batch = messages.slice(i, i + BATCH);
        const outcomes = await svc.service.pipeline.applyAll(batch);
        outcomes.forEach((o, j) => {
          if (!o.ok && rejections.length < 5)
            rejections.push(`${o.message} ← ${JSON.stringify(batch[j]).slice(0, 200)}`);
        });
      }
      if (t >= to) return;
    }
  }

  before(async () => {
    svc = await startService({ now: START });
    // The simulator as the service runs it at SIM_SPEED=3600 (its pace sets how often books are
    // repriced), on tier-2 leagues: their fixtures are published 4 days ahead, and their books drift
    // as tier 1's do at a sixth of the cost (a tier-1 book holds ~850 props, all tilted at each step).
    sim = new Simulator({ seed: svc.service.config.simSeed, speed: SPEED, startAt: START, config: { tiers: [2] } });
    await advanceTo(START); // the world as it stands at the start
  });
  after(async () => {
    await svc?.close();
  });

  /** Prematch events kicking off from the day after tomorrow (the list is in kick-off order: today's games come first). */
  async function prematch(): Promise<{ items: Item[]; worldNow: number }> {
    const worldNow = svc.clock.now();
    const from = new Date(worldNow + 2 * 24 * HOUR).toISOString().slice(0, 10);
    const res = await svc.get<{ events: Item[] }>(`/v1/events?status=prematch&from=${from}&limit=100`);
    assert.equal(res.status, 200, res.text);
    return { items: res.body.events, worldNow };
  }

  test("over 10+ world hours main prices change and updated_at moves with them, never past the world's now", async () => {
    const first = await prematch();
    // Events that stay prematch for the whole wait (kick-off a day or more ahead).
    const far = first.items.filter((e) => Date.parse(e.start_time) > first.worldNow + 24 * HOUR);
    assert.ok(far.length >= 20, `${far.length} prematch events a day ahead`);
    // 10+ world hours, driven: the simulator has played every one of them before anything is compared.
    await advanceTo(first.worldNow + 10 * HOUR + STEP);
    let moved = 0;
    let compared = 0;
    for (const e of far) {
      const res = await svc.get<Item & { status: string }>(`/v1/events/${e.id}`);
      assert.equal(res.status, 200, res.text);
      const now = res.body;
      const worldNow = svc.clock.now();
      if (now.status !== 'prematch') continue;
      compared++;
      assert.ok(Date.parse(now.updated_at) <= worldNow, `${e.id} updated_at ${now.updated_at} is after now`);
      if (JSON.stringify(now.odds) !== JSON.stringify(e.odds)) {
        moved++;
        assert.ok(Date.parse(now.updated_at) > Date.parse(e.updated_at), `${e.id}: prices moved, updated_at did not`);
      }
    }
    assert.deepEqual(rejections, []);
    assert.ok(compared >= 20, `${compared} events compared`);
    assert.ok(moved >= compared / 2, `${moved} of ${compared} prematch events moved`);
  });
});
