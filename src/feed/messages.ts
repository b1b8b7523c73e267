// Feed message schemas (docs/contract/feed.md): TypeBox types, compiled validators, and the checks a schema cannot express.
import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { FEED_STATUSES, FINAL_STATUSES } from '../domain/lifecycle.js';
import { canonicalMarketKey } from '../domain/market-key.js';
import { SPORT_KEYS, sportByKey } from '../domain/sports.js';

// ---------------------------------------------------------------------------------------------
// Building blocks. Objects allow unknown extra properties (TypeBox's default) so that a producer
// on a newer contract version does not get rejected by an older service.

/** Patterns double as keys into PATTERN_HINTS, which turns them into readable error messages. */
const ID_PATTERN = '^[^\\s\\u0000-\\u001f\\u007f-\\u009f]+$';
const SLUG_PATTERN = '^[a-z0-9-]+$';
const LOGO_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
const NOT_BLANK_PATTERN = '\\S';
/** A display name: not blank, no control characters (PostgreSQL text cannot even hold NUL). */
const NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';

const PATTERN_HINTS: ReadonlyMap<string, string> = new Map([
  [ID_PATTERN, 'must not contain whitespace or control characters'],
  [SLUG_PATTERN, "must contain only lower-case letters, digits and '-'"],
  [LOGO_ID_PATTERN, "must be 1-64 characters among A-Z, a-z, 0-9, '_' and '-'"],
  [NOT_BLANK_PATTERN, 'must not be blank'],
  [NAME_PATTERN, 'must not be blank or contain control characters'],
]);

const DATE_TIME_HINT = 'must be an ISO 8601 date-time with a time zone (e.g. 2024-05-01T18:00:00Z)';

const TextId = Type.String({ minLength: 1, maxLength: 128, pattern: ID_PATTERN });
/** market_id / selection_id: integers the producer assigns, exact in a JS number (below 2^53). */
const NumericId = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const NonBlank = Type.String({ minLength: 1, pattern: NOT_BLANK_PATTERN });
const DisplayName = Type.String({ minLength: 1, pattern: NAME_PATTERN });
const IsoDateTime = Type.String({ format: 'date-time' });
const Odds = Type.Number({ minimum: 1.01 });
const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Side = Type.Union([Type.Literal('home'), Type.Literal('away')]);
const SideOrNull = Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()]);
const LogoId = Type.Union([Type.String({ pattern: LOGO_ID_PATTERN }), Type.Null()]);

const ScoreSchema = Type.Object({ home: Count, away: Count });
const PeriodScoreSchema = Type.Object({ period: NonBlank, home: Count, away: Count });
const ScoreboardSchema = Type.Object({
  headers: Type.Array(Type.String()),
  home: Type.Array(Type.Union([Type.Number(), Type.String()])),
  away: Type.Array(Type.Union([Type.Number(), Type.String()])),
});

// ---------------------------------------------------------------------------------------------
// One schema per message type.

export const FixtureMessageSchema = Type.Object({
  type: Type.Literal('fixture'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  /** A key of src/domain/sports.ts; checked in code so the error can say the sport is unknown. */
  sport: Type.String(),
  league: Type.Object({
    slug: Type.String({ minLength: 1, maxLength: 128, pattern: SLUG_PATTERN }),
    name: NonBlank,
    country: NonBlank,
    /** 1 = top tier. Absent means 3; the pipeline applies that default. */
    tier: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  }),
  home_team: NonBlank,
  away_team: NonBlank,
  start_time: IsoDateTime,
  home_logo_id: Type.Optional(LogoId),
  away_logo_id: Type.Optional(LogoId),
});

export const OutcomeSchema = Type.Object({
  selection_id: NumericId,
  code: NonBlank,
  label: NonBlank,
  odds: Odds,
  team_side: Type.Optional(SideOrNull),
  is_locked: Type.Optional(Type.Boolean()),
});

export const MarketSchema = Type.Object({
  market_id: NumericId,
  /** `family[@period][:line]`; must parse with the market key grammar (checked in code). */
  key: NonBlank,
  name: NonBlank,
  outcomes: Type.Array(OutcomeSchema, { minItems: 1, maxItems: 200 }),
});

export const MarketsMessageSchema = Type.Object({
  type: Type.Literal('markets'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  markets: Type.Array(MarketSchema, { minItems: 1, maxItems: 5000 }),
});

export const OddsChangeSchema = Type.Object({
  selection_id: NumericId,
  odds: Type.Optional(Odds),
  is_locked: Type.Optional(Type.Boolean()),
});

export const OddsMessageSchema = Type.Object({
  type: Type.Literal('odds'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  changes: Type.Array(OddsChangeSchema, { minItems: 1, maxItems: 100_000 }),
});

export const RemoveMarketsMessageSchema = Type.Object({
  type: Type.Literal('remove_markets'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  /** Exactly one of `market_ids` and `all: true` (checked in code). */
  market_ids: Type.Optional(Type.Array(NumericId, { minItems: 1, maxItems: 5000 })),
  all: Type.Optional(Type.Boolean()),
});

export const StatusMessageSchema = Type.Object({
  type: Type.Literal('status'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  status: Type.Enum(FEED_STATUSES),
});

export const ScoreMessageSchema = Type.Object({
  type: Type.Literal('score'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  score: ScoreSchema,
  period: Type.Optional(Type.String()),
  clock: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  period_scores: Type.Optional(Type.Array(PeriodScoreSchema)),
  sport_data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  /** `home` and `away` have one cell per header (checked in code). */
  scoreboard: Type.Optional(Type.Union([ScoreboardSchema, Type.Null()])),
});

export const ResultMessageSchema = Type.Object({
  type: Type.Literal('result'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  status: Type.Enum(FINAL_STATUSES),
  score: ScoreSchema,
  period_scores: Type.Optional(Type.Array(PeriodScoreSchema)),
  ended_at: Type.Optional(IsoDateTime),
  winner: Type.Optional(SideOrNull),
});

/** A player line: the named fields plus counters (`goals`, `kills`…) as extra numeric properties. */
export const PlayerStatsSchema = Type.Object({
  player_id: Type.Union([TextId, NumericId]),
  name: NonBlank,
  team: Side,
});

export const StatsMessageSchema = Type.Object({
  type: Type.Literal('stats'),
  ts: Type.Optional(IsoDateTime),
  event_id: TextId,
  players: Type.Array(PlayerStatsSchema, { maxItems: 10_000 }),
  /** Absent means false: player-prop markets wait for a `final: true`. */
  final: Type.Optional(Type.Boolean()),
});

export const TournamentMessageSchema = Type.Object({
  type: Type.Literal('tournament'),
  ts: Type.Optional(IsoDateTime),
  tournament_id: TextId,
  tournament: DisplayName,
  sport: Type.String(),
  /** Must be the sportId of `sport` in src/domain/sports.ts (checked in code). */
  sport_id: Type.Integer(),
});

export const OutrightSelectionSchema = Type.Object({
  selection_id: NumericId,
  selection: DisplayName,
  odds: Odds,
  /**
   * The selection can no longer win (knocked out, out of reach): no longer offered, but kept in the
   * market so that it settles as lost and a bet on it can still be checked.
   */
  eliminated: Type.Optional(Type.Boolean()),
});

export const OutrightMarketMessageSchema = Type.Object({
  type: Type.Literal('outright_market'),
  ts: Type.Optional(IsoDateTime),
  tournament_id: TextId,
  market_id: NumericId,
  market: DisplayName,
  selections: Type.Array(OutrightSelectionSchema, { minItems: 1, maxItems: 1000 }),
});

export const OutrightWinnerSchema = Type.Object({
  selection_id: NumericId,
  /** Share of the stake paid at full odds in a dead heat (0.5 for two tied winners). */
  dead_heat_factor: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
});

export const OutrightResultMessageSchema = Type.Object({
  type: Type.Literal('outright_result'),
  ts: Type.Optional(IsoDateTime),
  tournament_id: TextId,
  market_id: NumericId,
  /** Exactly one of `winners` and `void: true` (checked in code). */
  winners: Type.Optional(Type.Array(OutrightWinnerSchema, { minItems: 1, maxItems: 1000 })),
  void: Type.Optional(Type.Boolean()),
});

export type FixtureMessage = Static<typeof FixtureMessageSchema>;
export type Outcome = Static<typeof OutcomeSchema>;
export type MarketDef = Static<typeof MarketSchema>;
export type MarketsMessage = Static<typeof MarketsMessageSchema>;
export type OddsChange = Static<typeof OddsChangeSchema>;
export type OddsMessage = Static<typeof OddsMessageSchema>;
export type RemoveMarketsMessage = Static<typeof RemoveMarketsMessageSchema>;
export type StatusMessage = Static<typeof StatusMessageSchema>;
export type ScoreMessage = Static<typeof ScoreMessageSchema>;
export type ResultMessage = Static<typeof ResultMessageSchema>;
export type PlayerStats = Static<typeof PlayerStatsSchema>;
export type StatsMessage = Static<typeof StatsMessageSchema>;
export type TournamentMessage = Static<typeof TournamentMessageSchema>;
export type OutrightSelection = Static<typeof OutrightSelectionSchema>;
export type OutrightMarketMessage = Static<typeof OutrightMarketMessageSchema>;
export type OutrightWinner = Static<typeof OutrightWinnerSchema>;
export type OutrightResultMessage = Static<typeof OutrightResultMessageSchema>;

export type FeedMessage =
  | FixtureMessage
  | MarketsMessage
  | OddsMessage
  | RemoveMarketsMessage
  | StatusMessage
  | ScoreMessage
  | ResultMessage
  | StatsMessage
  | TournamentMessage
  | OutrightMarketMessage
  | OutrightResultMessage;

export type FeedMessageType = FeedMessage['type'];

/** The schema of each message type, e.g. for API documentation of the admin feed. */
export const FEED_MESSAGE_SCHEMAS = {
  fixture: FixtureMessageSchema,
  markets: MarketsMessageSchema,
  odds: OddsMessageSchema,
  remove_markets: RemoveMarketsMessageSchema,
  status: StatusMessageSchema,
  score: ScoreMessageSchema,
  result: ResultMessageSchema,
  stats: StatsMessageSchema,
  tournament: TournamentMessageSchema,
  outright_market: OutrightMarketMessageSchema,
  outright_result: OutrightResultMessageSchema,
} as const satisfies Record<FeedMessageType, TSchema>;

export const FEED_MESSAGE_TYPES = Object.keys(FEED_MESSAGE_SCHEMAS) as FeedMessageType[];

// ---------------------------------------------------------------------------------------------
// Semantic checks: run only on values that already passed their schema. Each returns an error
// message naming the field, or null.

type Semantic<T> = (m: T) => string | null;

/** Epoch milliseconds of an ISO 8601 date-time the schema accepted, or null when JS cannot read it. */
export function parseIsoDateTime(value: string): number | null {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

// The schema's `date-time` format follows RFC 3339/9557, which admits a few forms Date.parse does
// not read (leap second `:60`, a `[Europe/London]` suffix); the pipeline needs a number, so refuse them.
function checkDateTime(field: string, value: string | undefined): string | null {
  if (value === undefined || parseIsoDateTime(value) !== null) return null;
  return `${field}: ${DATE_TIME_HINT}`;
}

function checkSport(sport: string): string | null {
  if (sportByKey(sport)) return null;
  return `sport: unknown sport '${sport}' (known: ${SPORT_KEYS.join(', ')})`;
}

function checkScoreboard(board: ScoreMessage['scoreboard']): string | null {
  if (!board) return null;
  const n = board.headers.length;
  if (board.home.length !== n)
    return `scoreboard/home: must have ${n} cells, one per header (has ${board.home.length})`;
  if (board.away.length !== n)
    return `scoreboard/away: must have ${n} cells, one per header (has ${board.away.length})`;
  return null;
}

const checkFixture: Semantic<FixtureMessage> = (m) =>
  checkDateTime('ts', m.ts) ?? checkSport(m.sport) ?? checkDateTime('start_time', m.start_time);

const checkMarkets: Semantic<MarketsMessage> = (m) => {
  const marketIds = new Set<number>();
  const selectionIds = new Set<number>();
  for (let i = 0; i < m.markets.length; i++) {
    const market = m.markets[i]!;
    if (canonicalMarketKey(market.key) === null) {
      return `markets/${i}/key: '${market.key}' is not a valid market key (family[@period][:line], e.g. totals:2.5)`;
    }
    if (marketIds.has(market.market_id)) {
      return `markets/${i}/market_id: duplicate market_id ${market.market_id} in this message`;
    }
    marketIds.add(market.market_id);
    const codes = new Set<string>();
    for (let j = 0; j < market.outcomes.length; j++) {
      const outcome = market.outcomes[j]!;
      if (selectionIds.has(outcome.selection_id)) {
        return `markets/${i}/outcomes/${j}/selection_id: duplicate selection_id ${outcome.selection_id} in this message`;
      }
      selectionIds.add(outcome.selection_id);
      // Grading reads the code, so two outcomes of one market with the same code would be ambiguous.
      if (codes.has(outcome.code))
        return `markets/${i}/outcomes/${j}/code: duplicate code '${outcome.code}' in this market`;
      codes.add(outcome.code);
    }
  }
  return checkDateTime('ts', m.ts);
};

const checkOdds: Semantic<OddsMessage> = (m) => {
  const changes = m.changes;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (c.odds === undefined && c.is_locked === undefined) return `changes/${i}: must carry odds or is_locked`;
  }
  return checkDateTime('ts', m.ts);
};

const checkRemoveMarkets: Semantic<RemoveMarketsMessage> = (m) => {
  const all = m.all === true;
  if (all && m.market_ids !== undefined) return 'market_ids: give either market_ids or all: true, not both';
  if (!all && m.market_ids === undefined) return "missing field 'market_ids' (or all: true)";
  return checkDateTime('ts', m.ts);
};

const checkTsOnly: Semantic<{ ts?: string }> = (m) => checkDateTime('ts', m.ts);

const checkScore: Semantic<ScoreMessage> = (m) => checkScoreboard(m.scoreboard) ?? checkDateTime('ts', m.ts);

const checkResult: Semantic<ResultMessage> = (m) => checkDateTime('ts', m.ts) ?? checkDateTime('ended_at', m.ended_at);

const checkStats: Semantic<StatsMessage> = (m) => {
  const seen = new Set<string | number>();
  for (let i = 0; i < m.players.length; i++) {
    const id = m.players[i]!.player_id;
    if (seen.has(id)) return `players/${i}/player_id: duplicate player_id ${JSON.stringify(id)} in this message`;
    seen.add(id);
  }
  return checkDateTime('ts', m.ts);
};

const checkTournament: Semantic<TournamentMessage> = (m) => {
  const sportError = checkSport(m.sport);
  if (sportError) return sportError;
  const expected = sportByKey(m.sport)!.sportId;
  if (m.sport_id !== expected) return `sport_id: must be ${expected} for sport '${m.sport}' (got ${m.sport_id})`;
  return checkDateTime('ts', m.ts);
};

const checkOutrightMarket: Semantic<OutrightMarketMessage> = (m) => {
  const seen = new Set<number>();
  for (let i = 0; i < m.selections.length; i++) {
    const id = m.selections[i]!.selection_id;
    if (seen.has(id)) return `selections/${i}/selection_id: duplicate selection_id ${id} in this message`;
    seen.add(id);
  }
  return checkDateTime('ts', m.ts);
};

const checkOutrightResult: Semantic<OutrightResultMessage> = (m) => {
  const isVoid = m.void === true;
  if (isVoid && m.winners !== undefined) return 'winners: give either winners or void: true, not both';
  if (!isVoid && m.winners === undefined) return "missing field 'winners' (or void: true)";
  const seen = new Set<number>();
  const winners = m.winners ?? [];
  for (let i = 0; i < winners.length; i++) {
    const id = winners[i]!.selection_id;
    if (seen.has(id)) return `winners/${i}/selection_id: duplicate selection_id ${id} in this message`;
    seen.add(id);
  }
  return checkDateTime('ts', m.ts);
};

// ---------------------------------------------------------------------------------------------
// Compiled validators, dispatched on `type`.

interface MessageValidator {
  check(value: unknown): boolean;
  errors(value: unknown): TLocalizedValidationError[];
  semantic(message: FeedMessage): string | null;
}

function validatorFor<S extends TSchema, T extends FeedMessage>(schema: S, semantic: Semantic<T>): MessageValidator {
  const compiled = Compile(schema);
  return {
    check: (value) => compiled.Check(value),
    errors: (value) => compiled.Errors(value),
    // Only called with a value this schema accepted, so it has T's shape.
    semantic: (message) => semantic(message as T),
  };
}

const VALIDATORS: ReadonlyMap<string, MessageValidator> = new Map<FeedMessageType, MessageValidator>([
  ['fixture', validatorFor(FixtureMessageSchema, checkFixture)],
  ['markets', validatorFor(MarketsMessageSchema, checkMarkets)],
  ['odds', validatorFor(OddsMessageSchema, checkOdds)],
  ['remove_markets', validatorFor(RemoveMarketsMessageSchema, checkRemoveMarkets)],
  ['status', validatorFor(StatusMessageSchema, checkTsOnly)],
  ['score', validatorFor(ScoreMessageSchema, checkScore)],
  ['result', validatorFor(ResultMessageSchema, checkResult)],
  ['stats', validatorFor(StatsMessageSchema, checkStats)],
  ['tournament', validatorFor(TournamentMessageSchema, checkTournament)],
  ['outright_market', validatorFor(OutrightMarketMessageSchema, checkOutrightMarket)],
  ['outright_result', validatorFor(OutrightResultMessageSchema, checkOutrightResult)],
]);

export type FeedValidation = { ok: true; message: FeedMessage } | { ok: false; message: string };

/**
 * Validates one decoded feed message. On success the message is returned as given (not copied,
 * defaults not applied); on failure `message` names the offending field path.
 */
export function validateFeedMessage(value: unknown): FeedValidation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `message must be a JSON object (got ${jsonTypeOf(value)})` };
  }
  if (!('type' in value)) return { ok: false, message: "missing field 'type'" };
  const type = value.type;
  if (typeof type !== 'string') return { ok: false, message: `type: must be a string (got ${jsonTypeOf(type)})` };
  const validator = VALIDATORS.get(type);
  if (!validator) {
    return { ok: false, message: `unknown message type '${type}' (expected one of ${FEED_MESSAGE_TYPES.join(', ')})` };
  }
  if (!validator.check(value)) return { ok: false, message: describeErrors(validator.errors(value)) };
  const message = value as FeedMessage;
  const semanticError = validator.semantic(message);
  if (semanticError !== null) return { ok: false, message: semanticError };
  return { ok: true, message };
}

/** The counters of a player line: its extra numeric properties (non-numeric extras are ignored). */
export function playerCounters(player: PlayerStats): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const [name, value] of Object.entries(player)) {
    if (name === 'player_id' || name === 'name' || name === 'team') continue;
    if (typeof value === 'number' && Number.isFinite(value)) counters[name] = value;
  }
  return counters;
}

// ---------------------------------------------------------------------------------------------
// Turning TypeBox errors into one message that names the field.

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function fieldPath(instancePath: string): string {
  return instancePath.startsWith('/') ? instancePath.slice(1) : instancePath;
}

function withPath(instancePath: string, text: string): string {
  const path = fieldPath(instancePath);
  return path === '' ? `message ${text}` : `${path}: ${text}`;
}

const ARTICLE: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function expectedType(error: TLocalizedValidationError): string | null {
  if (error.keyword === 'type') {
    const type = (error.params as { type?: unknown }).type;
    const types = Array.isArray(type) ? type.map(String) : [String(type)];
    return types.map((t) => ARTICLE[t] ?? t).join(' or ');
  }
  if (error.keyword === 'const') return JSON.stringify((error.params as { allowedValue?: unknown }).allowedValue);
  return null;
}

function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function keywordText(error: TLocalizedValidationError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
    case 'const':
      return `must be ${expectedType(error)}`;
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    case 'minimum':
      return `must be >= ${String(params.limit)}`;
    case 'maximum':
      return params.limit === Number.MAX_SAFE_INTEGER ? 'must be below 2^53' : `must be <= ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be > ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be < ${String(params.limit)}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'minItems':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'pattern':
      return PATTERN_HINTS.get(String(params.pattern)) ?? error.message;
    case 'format':
      return params.format === 'date-time' ? DATE_TIME_HINT : error.message;
    default:
      return error.message;
  }
}

function describeError(error: TLocalizedValidationError, all: TLocalizedValidationError[]): string {
  if (error.keyword === 'required') {
    const missing = (error.params as { requiredProperties?: unknown }).requiredProperties;
    const name = Array.isArray(missing) && missing.length > 0 ? String(missing[0]) : '?';
    const parent = fieldPath(error.instancePath);
    return `missing field '${parent === '' ? name : `${parent}/${name}`}'`;
  }
  if (error.keyword === 'anyOf') {
    const prefix = `${error.schemaPath}/anyOf/`;
    const branches = new Map<string, TLocalizedValidationError[]>();
    for (const e of all) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const branch = branchOf(e, prefix);
      const list = branches.get(branch) ?? [];
      list.push(e);
      branches.set(branch, list);
    }
    // A branch whose failure is not "wrong type here" is the one the producer meant: report its
    // detail ("must be >= 0") rather than the list of alternatives.
    for (const list of branches.values()) {
      const typeMiss = list.some(
        (e) => e.instancePath === error.instancePath && (e.keyword === 'type' || e.keyword === 'const'),
      );
      if (!typeMiss) return describeError(primaryError(list, `${prefix}${branchOf(list[0]!, prefix)}`)!, all);
    }
    const expected = [...branches.values()].flatMap((list) => {
      const own = list.find((e) => e.instancePath === error.instancePath);
      const text = own ? expectedType(own) : null;
      return text ? [text] : [];
    });
    if (expected.length > 0) return withPath(error.instancePath, `must be ${orList([...new Set(expected)])}`);
  }
  return withPath(error.instancePath, keywordText(error));
}

function branchOf(error: TLocalizedValidationError, anyOfPrefix: string): string {
  return error.schemaPath.slice(anyOfPrefix.length).split('/')[0]!;
}

/**
 * The error to report among those under `base`: errors inside a (deeper) anyOf branch are
 * explained by their anyOf error, which TypeBox lists after them.
 */
function primaryError(errors: TLocalizedValidationError[], base = ''): TLocalizedValidationError | undefined {
  return errors.find((e) => !e.schemaPath.slice(base.length).includes('/anyOf/')) ?? errors[0];
}

function describeErrors(errors: TLocalizedValidationError[]): string {
  const first = primaryError(errors);
  return first ? describeError(first, errors) : 'message is invalid';
}
