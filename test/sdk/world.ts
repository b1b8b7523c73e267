// A listening test service holding a small world (prematch, live, settled events, outrights) for the SDK's tests.
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';
import {
  at,
  DAY,
  feedOk,
  HOUR,
  liveEventMessages,
  MINUTE,
  prematchEvent,
  startService,
  type StartOptions,
  type TestService,
} from '../helpers/service.js';

export interface SdkWorld {
  svc: TestService;
  baseUrl: string;
}

/** A soccer game played to `score` and ended `endOffset` ms after T0, its 1x2 and totals settled by the engine. */
export function playedGame(id: string, endOffset: number, score: [number, number] = [2, 1]): object[] {
  const start = endOffset - 2 * HOUR;
  return [
    ...prematchEvent(id, { start_time: at(start), ts: at(start - DAY) }),
    { type: 'status', event_id: id, status: 'live', ts: at(start) },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home: score[0], away: score[1] },
      period_scores: [
        { period: '1H', home: 0, away: 0 },
        { period: '2H', home: score[0], away: score[1] },
      ],
      ended_at: at(endOffset),
      ts: at(endOffset),
    },
  ];
}

/** The outright tournament of the tests: a winner market of three (101-103) and a top scorer market of four (201-204). */
export const CUP: object[] = [
  tournament('cup-2026', 'soccer', 'Cup 2026'),
  outrightMarket('cup-2026', 10, [
    [101, 'Brazil', 5],
    [102, 'France', 6],
    [103, 'Spain', 7],
  ]),
  outrightMarket(
    'cup-2026',
    20,
    [
      [201, 'Player A', 8],
      [202, 'Player B', 9],
      [203, 'Player C', 10],
      [204, 'Player D', 12],
    ],
    'Top Scorer',
  ),
];

/** Starts a service listening on a free loopback port, fed with `messages` and settled. */
export async function startWorld(messages: object[], opts: StartOptions = {}): Promise<SdkWorld> {
  const svc = await startService(opts);
  try {
    if (messages.length > 0) await feedOk(svc, messages);
    await svc.service.settlement.idle();
    const baseUrl = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    return { svc, baseUrl };
  } catch (err) {
    await svc.close();
    throw err;
  }
}

/** The default world: p1 prematch, l1 live 1-0, g1 and g2 played and settled, the cup's winner market settled. */
export function defaultWorld(): object[] {
  return [
    ...prematchEvent('p1', {}, { home: 2.5, draw: 3.2, away: 2.9 }),
    ...liveEventMessages('l1', {}, 1, 0),
    ...playedGame('g1', -HOUR),
    ...playedGame('g2', -30 * MINUTE, [0, 0]),
    ...CUP,
    outrightResult('cup-2026', 10, [102], at(-10 * MINUTE)),
  ];
}
