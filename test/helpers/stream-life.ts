// What the stream tests of one service share: listening on a free port, and a soccer event's life as feed bodies (every kind of change).
import type { AddressInfo } from 'node:net';
import type { Rng } from '../../src/feed/simulator/rng.js';
import { fixture, markets, odds, result, score, SEL, status, type TestService } from './service.js';

/** Listens on a free loopback port; returns the base URL. */
export async function listen(svc: TestService): Promise<string> {
  await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.service.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A soccer event through its whole life, and prices that move (locks too), seeded. */
export function lifeOf(id: string, rng: Rng): object[][] {
  const ticks: object[][] = [[fixture(id), markets(id)], [status(id, 'live')]];
  let home = 0;
  for (let i = 0; i < 12; i++) {
    ticks.push([
      odds(id, [
        { selection_id: SEL.home, odds: Math.round(rng.uniform(1.2, 5) * 100) / 100 },
        { selection_id: SEL.over, odds: Math.round(rng.uniform(1.2, 3) * 100) / 100, is_locked: rng.next() < 0.2 },
      ]),
    ]);
    if (rng.next() < 0.25) ticks.push([score(id, ++home, 0, { period: '1H', clock: `${10 + i}:00` })]);
  }
  ticks.push([result(id, home, 0)]);
  return ticks;
}
