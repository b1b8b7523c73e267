// SportsDataClient: one method per client endpoint of the service, typed from its OpenAPI document.
import { Http, realSleep, type FetchLike, type QueryValue, type RetryOptions } from './http.js';
import {
  settlementPages,
  outrightSettlementPages,
  type SettlementPagingQuery,
  type OutrightPagingQuery,
} from './paging.js';
import { EventStream, type StreamOptions } from './stream.js';
import type {
  BatchResponse,
  BetCheckRequest,
  BetCheckResponse,
  EventDetail,
  EventList,
  EventOdds,
  EventOddsAt,
  EventResult,
  EventSettlement,
  FeaturedEventList,
  Health,
  LeagueList,
  OddsFormat,
  OddsHistoryEntry,
  OddsHistoryPage,
  OutrightList,
  OutrightSettlementEntry,
  OutrightSettlementPage,
  OutrightSportList,
  QueryOf,
  ScoreList,
  SettlementEntry,
  SettlementPage,
  SportList,
  Status,
  Usage,
  UsageWarnings,
} from './types.js';

export interface SportsDataClientOptions {
  /** The service's address, e.g. `https://api.example.com` or `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Sent as `X-API-Key`; only `getStatus()` and logos work without one. */
  apiKey?: string;
  /** Odds format of every call that does not name one (default: the service's, decimal). */
  oddsFormat?: OddsFormat;
  /** A fetch implementation (default: the global one). */
  fetch?: FetchLike;
  /** Retries of 429 and 503 answers that carry Retry-After. */
  retry?: RetryOptions;
  /** Extra headers sent with every request (e.g. User-Agent on Node). */
  headers?: Record<string, string>;
}

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
}

const enc = encodeURIComponent;

export class SportsDataClient {
  /** The request layer (the stream and the iterators share it). */
  readonly http: Http;
  readonly oddsFormat: OddsFormat | undefined;

  constructor(options: SportsDataClientOptions) {
    const f = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (f === undefined) throw new TypeError('no fetch available: pass options.fetch');
    this.oddsFormat = options.oddsFormat;
    this.http = new Http({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      // Called unbound: a browser's fetch throws when called as a method of another object.
      fetch: (input, init) => f(input, init),
      retry: {
        maxRetries: options.retry?.maxRetries ?? 3,
        maxWaitMs: options.retry?.maxWaitMs ?? 60_000,
        sleep: options.retry?.sleep ?? realSleep,
      },
      headers: options.headers ?? {},
    });
  }

  private get<T>(path: string, query?: object, o: CallOptions = {}, acceptStatus?: number[]): Promise<T> {
    return this.http.json<T>({
      method: 'GET',
      path,
      query: query as Record<string, QueryValue> | undefined,
      signal: o.signal,
      ...(acceptStatus !== undefined ? { acceptStatus } : {}),
    });
  }

  private post<T>(path: string, body: unknown, query?: object, o: CallOptions = {}): Promise<T> {
    return this.http.json<T>({
      method: 'POST',
      path,
      body,
      query: query as Record<string, QueryValue> | undefined,
      signal: o.signal,
    });
  }

  /** The query with the client's default odds format where the call names none. */
  private withFormat<Q extends { odds_format?: OddsFormat }>(query: Q | undefined): Q {
    const q = { ...(query ?? {}) } as Q;
    if (q.odds_format === undefined && this.oddsFormat !== undefined) q.odds_format = this.oddsFormat;
    return q;
  }

  /** GET /v1/events: live first, then by start time. */
  listEvents(query?: QueryOf<'listEvents'>, o?: CallOptions): Promise<EventList> {
    return this.get('/v1/events', this.withFormat(query), o);
  }

  /** GET /v1/events/featured: the most prominent upcoming and live events. */
  listFeaturedEvents(query?: QueryOf<'listFeaturedEvents'>, o?: CallOptions): Promise<FeaturedEventList> {
    return this.get('/v1/events/featured', this.withFormat(query), o);
  }

  /** GET /v1/events/{id}: one event with every market, sport data and scoreboard. */
  getEvent(eventId: string, query?: QueryOf<'getEvent'>, o?: CallOptions): Promise<EventDetail> {
    return this.get(`/v1/events/${enc(eventId)}`, this.withFormat(query), o);
  }

  /** GET /v1/events/{id}/odds: the odds only, lighter than the detail. */
  getEventOdds(eventId: string, query?: Omit<QueryOf<'getEventOdds'>, 'at'>, o?: CallOptions): Promise<EventOdds> {
    return this.get(`/v1/events/${enc(eventId)}/odds`, this.withFormat(query), o);
  }

  /** GET /v1/events/{id}/odds?at=: the odds as they stood at that instant (from the odds history). */
  getEventOddsAt(
    eventId: string,
    at: string | Date,
    query?: Omit<QueryOf<'getEventOdds'>, 'at'>,
    o?: CallOptions,
  ): Promise<EventOddsAt> {
    const iso = typeof at === 'string' ? at : at.toISOString();
    return this.get(`/v1/events/${enc(eventId)}/odds`, { ...this.withFormat(query), at: iso }, o);
  }

  /** GET /v1/events/{id}/odds/history: one page of price and lock changes, oldest first. */
  getEventOddsHistory(
    eventId: string,
    query?: QueryOf<'getEventOddsHistory'>,
    o?: CallOptions,
  ): Promise<OddsHistoryPage> {
    return this.get(`/v1/events/${enc(eventId)}/odds/history`, this.withFormat(query), o);
  }

  /** Every change of an event's odds history, oldest first, following next_cursor page by page. */
  async *iterateEventOddsHistory(
    eventId: string,
    query: Omit<QueryOf<'getEventOddsHistory'>, 'cursor'> = {},
    o?: CallOptions,
  ): AsyncGenerator<OddsHistoryEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.getEventOddsHistory(
        eventId,
        { ...query, ...(cursor !== undefined ? { cursor } : {}) },
        o,
      );
      yield* page.history;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** GET /v1/events/{id}/result: final score and status, kept forever. */
  getEventResult(eventId: string, o?: CallOptions): Promise<EventResult> {
    return this.get(`/v1/events/${enc(eventId)}/result`, undefined, o);
  }

  /**
   * GET /v1/events/{id}/settlement: the event's settlement entry with every resolved outcome
   * explained (why it was graded so); `status: 'pending'` before its first market resolves.
   */
  getEventSettlement(
    eventId: string,
    query?: QueryOf<'getEventSettlement'>,
    o?: CallOptions,
  ): Promise<EventSettlement> {
    return this.get(`/v1/events/${enc(eventId)}/settlement`, this.withFormat(query), o);
  }

  /** POST /v1/events/batch: up to 20 events with every market; unknown ids are left out (`found` < `requested`). */
  getEventsBatch(ids: readonly string[], query?: QueryOf<'getEventsBatch'>, o?: CallOptions): Promise<BatchResponse> {
    return this.post('/v1/events/batch', { ids: [...ids] }, this.withFormat(query), o);
  }

  /** GET /v1/live: live events only. */
  listLiveEvents(query?: QueryOf<'listLiveEvents'>, o?: CallOptions): Promise<EventList> {
    return this.get('/v1/live', this.withFormat(query), o);
  }

  /** GET /v1/leagues: leagues with live or upcoming events. */
  listLeagues(o?: CallOptions): Promise<LeagueList> {
    return this.get('/v1/leagues', undefined, o);
  }

  /** GET /v1/sports: every sport with its event counts. */
  listSports(o?: CallOptions): Promise<SportList> {
    return this.get('/v1/sports', undefined, o);
  }

  /** GET /v1/scores: live scores (and games ended in the last 5 minutes), no markets. */
  listScores(query?: QueryOf<'listScores'>, o?: CallOptions): Promise<ScoreList> {
    return this.get('/v1/scores', query, o);
  }

  /** GET /v1/settlements: one page of the settlement feed (newest first, or changes since `updated_since`). */
  listSettlements(query?: QueryOf<'listSettlements'>, o?: CallOptions): Promise<SettlementPage> {
    return this.get('/v1/settlements', query, o);
  }

  /**
   * Every settlement entry, page after page by cursor: newest first, or with `updated_since` every
   * entry changed after that instant, oldest change first (poll on with the last entry's `updated_at`).
   */
  async *iterateSettlements(query: SettlementPagingQuery = {}, o?: CallOptions): AsyncGenerator<SettlementEntry> {
    for await (const page of this.settlementPages(query, o)) yield* page.settlements;
  }

  /** The settlement feed's pages, following next_cursor to the end. */
  settlementPages(query: SettlementPagingQuery = {}, o?: CallOptions): AsyncGenerator<SettlementPage> {
    return settlementPages((q) => this.listSettlements(q, o), query);
  }

  /** GET /v1/settlements/outrights: one page of outright settlements, newest first. */
  listOutrightSettlements(
    query?: QueryOf<'listOutrightSettlements'>,
    o?: CallOptions,
  ): Promise<OutrightSettlementPage> {
    return this.get('/v1/settlements/outrights', query, o);
  }

  /** Every outright settlement, newest first, page after page by cursor. */
  async *iterateOutrightSettlements(
    query: OutrightPagingQuery = {},
    o?: CallOptions,
  ): AsyncGenerator<OutrightSettlementEntry> {
    for await (const page of this.outrightSettlementPages(query, o)) yield* page.outright_settlements;
  }

  /** The outright settlement feed's pages, following next_cursor to the end. */
  outrightSettlementPages(query: OutrightPagingQuery = {}, o?: CallOptions): AsyncGenerator<OutrightSettlementPage> {
    return outrightSettlementPages((q) => this.listOutrightSettlements(q, o), query);
  }

  /** GET /v1/outrights: open outright markets, optionally of one `sport_id`. */
  listOutrights(query?: QueryOf<'listOutrights'>, o?: CallOptions): Promise<OutrightList> {
    return this.get('/v1/outrights', this.withFormat(query), o);
  }

  /** GET /v1/outrights/sports: sports with outright markets and their tournament counts. */
  listOutrightSports(o?: CallOptions): Promise<OutrightSportList> {
    return this.get('/v1/outrights/sports', undefined, o);
  }

  /**
   * POST /v1/bets/check: grades a single bet or a parlay (event and outright legs) as things stand;
   * `{ explain: 'true' }` adds each leg's explanation (why it settled so).
   */
  checkBet(body: BetCheckRequest, o?: CallOptions, query?: QueryOf<'checkBet'>): Promise<BetCheckResponse> {
    return this.post('/v1/bets/check', body, query, o);
  }

  /** GET /v1/usage: the key's plan, limits and usage this month. */
  getUsage(o?: CallOptions): Promise<Usage> {
    return this.get('/v1/usage', undefined, o);
  }

  /** GET /v1/usage/warnings: quota and error-rate warnings for the key. */
  getUsageWarnings(o?: CallOptions): Promise<UsageWarnings> {
    return this.get('/v1/usage/warnings', undefined, o);
  }

  /** GET /v1/health: the report, also when degraded (HTTP 503, `status` says so). */
  getHealth(o?: CallOptions): Promise<Health> {
    return this.get('/v1/health', undefined, o, [503]);
  }

  /** GET /v1/status: public, no key needed. */
  getStatus(o?: CallOptions): Promise<Status> {
    return this.get('/v1/status', undefined, o);
  }

  /** The address of a logo (PNG, public, for `<img src>`); payloads already carry these URLs. */
  logoUrl(logoId: string): string {
    return `${this.http.options.baseUrl.replace(/\/+$/, '')}/api/logo/${enc(logoId)}`;
  }

  /** GET /api/logo/{id}: the PNG bytes (the placeholder for an unknown id). */
  async getLogo(logoId: string, o?: CallOptions): Promise<Uint8Array> {
    const res = await this.http.send({
      method: 'GET',
      path: `/api/logo/${enc(logoId)}`,
      accept: 'image/png',
      signal: o?.signal,
    });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** GET /v1/stream: typed events, reconnecting with backoff and resuming by Last-Event-ID. */
  stream(options: StreamOptions = {}): EventStream {
    const odds_format = options.query?.odds_format ?? this.oddsFormat;
    return new EventStream(this.http, {
      ...options,
      query: { ...options.query, ...(odds_format !== undefined ? { odds_format } : {}) },
    });
  }
}
