// The simulator's tournaments through the real service: five simulated days of outright messages, none rejected.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FeedMessage } from '../../../src/feed/messages.js';
import { resolveConfig } from '../../../src/feed/simulator/config.js';
import { OutrightWorld } from '../../../src/feed/simulator/outrights/outrights.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';
import { startService, type TestService } from '../../helpers/service.js';

const START = Date.parse('2026-03-01T12:00:00Z');
const DAY = 86_400_000;

describe('simulated outrights → pipeline', () => {
  let svc: TestService;

  before(async () => {
    svc = await startService({ now: START });
  });

  after(async () => {
    await svc?.close();
  });

  /** Feeds messages in chunks of one instant, with the service clock at that instant. */
  async function feedAll(messages: FeedMessage[]): Promise<{ accepted: number; errors: string[] }> {
    let accepted = 0;
    const errors: string[] = [];
    for (let i = 0; i < messages.length;) {
      const ts = messages[i]!.ts!;
      let j = i;
      while (j < messages.length && messages[j]!.ts === ts) j++;
      svc.clock.set(ts);
      const chunk = messages.slice(i, j);
      const report = await svc.feed(chunk);
      accepted += report.accepted;
      for (const e of report.errors) errors.push(`${e.message} ← ${JSON.stringify(chunk[e.line - 1]).slice(0, 200)}`);
      i = j;
    }
    return { accepted, errors };
  }

  it('accepts every tournament, market and result of five days, then a restart re-sends harmlessly', async () => {
    const world = buildWorld(42);
    const config = resolveConfig({ outrightSimulations: 300 });
    const make = (): OutrightWorld =>
      new OutrightWorld({ seed: 42, config, leagues: world.leagues, allLeagues: world.leagues });
    const sim = make();
    const messages = sim.init(START);
    const restartAt = START + 3 * DAY + 5 * 3_600_000;
    for (let at = sim.nextAt(); at <= restartAt; at = sim.nextAt()) messages.push(...sim.run(at));
    const first = await feedAll(messages);
    assert.deepEqual(first.errors, []);
    assert.equal(first.accepted, messages.length);
    assert.ok(messages.some((m) => m.type === 'outright_result'));

    // A restarted world re-sends what is listed (unchanged for the service) and goes on to day five.
    const again = make();
    const resumed = again.init(restartAt);
    for (let at = again.nextAt(); at <= START + 5 * DAY; at = again.nextAt()) resumed.push(...again.run(at));
    const second = await feedAll(resumed);
    assert.deepEqual(second.errors, []);
    assert.ok(resumed.filter((m) => m.type === 'outright_result').length > 10);
  });
});
