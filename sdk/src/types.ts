// The SDK's public types: aliases of the types openapi-typescript generated from the service's OpenAPI document.
import type { paths } from './generated/openapi.js';

type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Post<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;

/** Each client operation by its operationId. */
export interface Operations {
  listEvents: Get<'/v1/events'>;
  listFeaturedEvents: Get<'/v1/events/featured'>;
  getEvent: Get<'/v1/events/{eventId}'>;
  getEventOdds: Get<'/v1/events/{eventId}/odds'>;
  getEventOddsHistory: Get<'/v1/events/{eventId}/odds/history'>;
  getEventResult: Get<'/v1/events/{eventId}/result'>;
  getEventsBatch: Post<'/v1/events/batch'>;
  listLiveEvents: Get<'/v1/live'>;
  listLeagues: Get<'/v1/leagues'>;
  listSports: Get<'/v1/sports'>;
  listScores: Get<'/v1/scores'>;
  listSettlements: Get<'/v1/settlements'>;
  listOutrightSettlements: Get<'/v1/settlements/outrights'>;
  listOutrights: Get<'/v1/outrights'>;
  listOutrightSports: Get<'/v1/outrights/sports'>;
  checkBet: Post<'/v1/bets/check'>;
  openStream: Get<'/v1/stream'>;
  getUsage: Get<'/v1/usage'>;
  getUsageWarnings: Get<'/v1/usage/warnings'>;
  getHealth: Get<'/v1/health'>;
  getStatus: Get<'/v1/status'>;
}
export type OperationId = keyof Operations;

/** The JSON body of an operation's 200 answer. */
export type ResponseOf<K extends OperationId> = Operations[K] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
/** An operation's query parameters (all optional, as the service declares them). */
export type QueryOf<K extends OperationId> = Operations[K] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
/** An operation's JSON request body. */
export type BodyOf<K extends OperationId> = Operations[K] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type OddsFormat = NonNullable<QueryOf<'listEvents'>['odds_format']>;

export type EventList = ResponseOf<'listEvents'>;
export type Event = EventList['events'][number];
export type FeaturedEventList = ResponseOf<'listFeaturedEvents'>;
export type EventDetail = ResponseOf<'getEvent'>;
export type EventOdds = ResponseOf<'getEventOdds'>;
export type Market = EventOdds['markets'][number];
export type Outcome = Market['outcomes'][number];
export type Score = Event['score'];
export type OddsHistoryPage = ResponseOf<'getEventOddsHistory'>;
export type EventResult = ResponseOf<'getEventResult'>;
export type BatchRequest = BodyOf<'getEventsBatch'>;
export type BatchResponse = ResponseOf<'getEventsBatch'>;
export type LeagueList = ResponseOf<'listLeagues'>;
export type League = LeagueList['leagues'][number];
export type SportList = ResponseOf<'listSports'>;
export type Sport = SportList['sports'][number];
export type ScoreList = ResponseOf<'listScores'>;
export type SettlementPage = ResponseOf<'listSettlements'>;
export type SettlementEntry = SettlementPage['settlements'][number];
export type OutrightSettlementPage = ResponseOf<'listOutrightSettlements'>;
export type OutrightSettlementEntry = OutrightSettlementPage['outright_settlements'][number];
export type OutrightList = ResponseOf<'listOutrights'>;
export type OutrightSportList = ResponseOf<'listOutrightSports'>;
export type BetCheckRequest = BodyOf<'checkBet'>;
export type BetCheckResponse = ResponseOf<'checkBet'>;
export type Usage = ResponseOf<'getUsage'>;
export type UsageWarnings = ResponseOf<'getUsageWarnings'>;
export type Health = ResponseOf<'getHealth'>;
export type Status = ResponseOf<'getStatus'>;
export type StreamQuery = QueryOf<'openStream'>;
