// The SDK's public types: aliases of the types openapi-typescript generated from the service's OpenAPI document.
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

/** The client operations, by the operationId the service documents. */
export type Operations = Pick<
  operations,
  | 'listEvents'
  | 'listFeaturedEvents'
  | 'getEvent'
  | 'getEventOdds'
  | 'getEventOddsHistory'
  | 'getEventResult'
  | 'getEventSettlement'
  | 'getEventsBatch'
  | 'listLiveEvents'
  | 'listLeagues'
  | 'listSports'
  | 'listScores'
  | 'listSettlements'
  | 'listOutrightSettlements'
  | 'listOutrights'
  | 'listOutrightSports'
  | 'checkBet'
  | 'openStream'
  | 'getUsage'
  | 'getUsageWarnings'
  | 'getHealth'
  | 'getStatus'
  | 'getLogo'
>;
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

export type OddsFormat = Schemas['OddsFormat'];
export type OddsValue = Schemas['OddsValue'];
export type Score = Schemas['Score'];
export type PeriodScore = Schemas['PeriodScore'];
export type EventStatus = Schemas['EventStatus'];
export type Event = Schemas['Event'];
export type EventList = Schemas['EventList'];
export type FeaturedEventList = Schemas['FeaturedEventList'];
export type EventDetail = Schemas['EventDetail'];
export type Scoreboard = Schemas['Scoreboard'];
export type EventOdds = Schemas['EventOdds'];
export type EventOddsAt = Schemas['EventOddsAt'];
export type Market = Schemas['Market'];
export type Outcome = Schemas['Outcome'];
export type OddsHistoryPage = Schemas['OddsHistoryPage'];
export type OddsHistoryEntry = Schemas['OddsHistoryEntry'];
export type EventResult = Schemas['EventResult'];
export type BatchRequest = Schemas['BatchRequest'];
export type BatchEvent = Schemas['BatchEvent'];
export type BatchResponse = Schemas['BatchResponse'];
export type LeagueList = Schemas['LeagueList'];
export type League = Schemas['League'];
export type SportList = Schemas['SportList'];
export type Sport = Schemas['Sport'];
export type ScoreList = Schemas['ScoreList'];
export type LiveScore = Schemas['LiveScore'];
export type SettlementPage = Schemas['SettlementPage'];
export type SettlementEntry = Schemas['SettlementEntry'];
export type ResolvedMarket = Schemas['ResolvedMarket'];
export type ResolvedOutcome = Schemas['ResolvedOutcome'];
export type EventSettlement = Schemas['EventSettlement'];
export type ExplainedMarket = Schemas['ExplainedMarket'];
export type ExplainedOutcome = Schemas['ExplainedOutcome'];
/** Why an outcome was graded so (docs/settlement.md "Why an outcome was graded so"). */
export type SettlementExplanation = Schemas['SettlementExplanation'];
export type OutrightSettlementPage = Schemas['OutrightSettlementPage'];
export type OutrightSettlementEntry = Schemas['OutrightSettlementEntry'];
export type OutrightList = Schemas['OutrightList'];
export type OutrightTournament = Schemas['OutrightTournament'];
export type OutrightSportList = Schemas['OutrightSportList'];
export type OutrightSport = Schemas['OutrightSport'];
export type BetCheckRequest = Schemas['BetCheckRequest'];
export type BetLeg = Schemas['BetLeg'];
export type BetCheckResponse = Schemas['BetCheckResponse'];
export type BetLegResult = Schemas['BetLegResult'];
export type Usage = Schemas['Usage'];
export type UsageWarnings = Schemas['UsageWarnings'];
export type UsageWarning = Schemas['UsageWarning'];
export type Health = Schemas['Health'];
export type Status = Schemas['Status'];
/** The error body of every refusal. */
export type ErrorBody = Schemas['Error'];
export type StreamQuery = QueryOf<'openStream'>;
