// A fake The Odds API (v4) on 127.0.0.1 for tests: serves /v4/sports/{sport}/odds and /scores from fixtures the test changes, counts credits, and can fail on demand.
import type { TheOddsApiSettings } from '../../../src/feed/upstream/the-odds-api/producer.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OddsEvent, ScoreEvent } from '../../../src/feed/upstream/the-odds-api/provider-types.js';

/** What the next calls answer instead of the fixtures (each entry is used once). */
export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** No answer at all (the client's timeout fires). */
  | { kind: 'hang' };

export interface FakeUpstream {
  url: string;
  /** Fixtures by sport key: the test edits them between polls. */
  odds: Map<string, OddsEvent[]>;
  scores: Map<string, ScoreEvent[]>;
  faults: Fault[];
  /** Every request: path and query. */
  requests: Array<{ path: string; query: URLSearchParams }>;
  /** Credits charged (as the provider documents: markets × regions for /odds, 2 for /scores with daysFrom). */
  creditsUsed: number;
  /** Credits of the fake subscription (x-requests-remaining counts down from it). */
  quota: number;
  close(): Promise<void>;
}

export const FAKE_KEY = 'fake-upstream-key';

/** The adapter's settings against this fake: the EPL from the UK region, William Hill's prices. */
export function fakeSettings(fake: FakeUpstream, over: Partial<TheOddsApiSettings> = {}): TheOddsApiSettings {
  return {
    url: fake.url,
    apiKey: FAKE_KEY,
    sports: ['soccer_epl'],
    regions: ['uk'],
    bookmaker: 'wh',
    pollSeconds: 60,
    monthlyBudget: 1000,
    ...over,
  };
}

export async function startFakeUpstream(quota = 100_000): Promise<FakeUpstream> {
  const hanging: ServerResponse[] = [];
  const fake: FakeUpstream = {
    url: '',
    odds: new Map(),
    scores: new Map(),
    faults: [],
    requests: [],
    creditsUsed: 0,
    quota,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    fake.requests.push({ path: url.pathname, query: url.searchParams });
    const fault = fake.faults.shift();
    if (fault?.kind === 'hang') {
      hanging.push(res);
      return;
    }
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      res.end(fault.body ?? JSON.stringify({ message: 'fault', error_code: 'FAULT' }));
      return;
    }
    if (url.searchParams.get('apiKey') !== FAKE_KEY) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'API key is not valid', error_code: 'INVALID_KEY' }));
      return;
    }
    const m = /^\/v4\/sports\/([a-z0-9_]+)\/(odds|scores)\/?$/.exec(url.pathname);
    if (m === null) {
      res.writeHead(404).end();
      return;
    }
    const [, sport, what] = m;
    const cost =
      what === 'odds'
        ? (url.searchParams.get('markets') ?? 'h2h').split(',').length *
          (url.searchParams.get('regions') ?? '').split(',').length
        : url.searchParams.has('daysFrom')
          ? 2
          : 1;
    fake.creditsUsed += cost;
    const body = what === 'odds' ? (fake.odds.get(sport!) ?? []) : (fake.scores.get(sport!) ?? []);
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-requests-remaining': String(Math.max(0, fake.quota - fake.creditsUsed)),
      'x-requests-used': String(fake.creditsUsed),
      'x-requests-last': String(cost),
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
