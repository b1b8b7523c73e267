// Shared TypeBox schemas: errors, scores, odds values, enums and the odds-format parameter.
import { Type, type TUnsafe } from 'typebox';
import { DECIDED_BY } from '../../domain/decision.js';
import { ODDS_FORMATS } from '../../domain/types.js';

/** A string restricted to values (`{type: string, enum}`): a named union type in generated clients. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  opts: { description?: string; $id?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });
}

export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'not_found',
  'rate_limited',
  'server_error',
  'service_unavailable',
] as const;

export const ErrorSchema = Type.Object(
  {
    error: StringEnum(ERROR_CODES, { description: 'machine code' }),
    message: Type.String({ description: 'human text, not contractual' }),
    component: Type.Optional(
      Type.String({ description: 'failing part, on service_unavailable (datastore, usage_counters, api, pipeline…)' }),
    ),
  },
  { $id: 'Error' },
);

/** An error status a route may answer besides 500. */
export type ErrorStatus = 400 | 401 | 404 | 429 | 503;

/**
 * The error answers a route really gives, each with the Error body (500 always: an unexpected
 * fault). Every route may answer 503 while the service shuts down (`component: api`); routes
 * behind a key 401, 429 (rate and quota) and 503 (`datastore`, `usage_counters`) from the key
 * check and metering; 400 where a parameter or body is validated; 404 where an id is looked up.
 */
export function errorsOf<const S extends readonly ErrorStatus[]>(
  ...statuses: S
): { [K in S[number] | 500]: typeof ErrorSchema } {
  const out: Record<number, typeof ErrorSchema> = {};
  for (const s of [...statuses, 500]) out[s] = ErrorSchema;
  return out as { [K in S[number] | 500]: typeof ErrorSchema };
}

/** The errors of a key route with parameters: 400, 401, 429, 503 (and 500). */
export const keyRouteErrors = errorsOf(400, 401, 429, 503);

export const ScoreSchema = Type.Object({ home: Type.Integer(), away: Type.Integer() }, { $id: 'Score' });

export const PeriodScoreSchema = Type.Object(
  { period: Type.String(), home: Type.Integer(), away: Type.Integer() },
  { $id: 'PeriodScore' },
);

export const WinnerSchema = Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()], {
  $id: 'Winner',
  description: 'the winning side once the event is decided; null for a draw and until it is decided',
});

export const DecidedBySchema = Type.Union([StringEnum(DECIDED_BY), Type.Null()], {
  $id: 'DecidedBy',
  description:
    'how a finished event was decided (regulation includes a draw); null until it is decided, and for a cancelled or abandoned event',
});

export const OddsValueSchema = Type.Union([Type.Number(), Type.String(), Type.Null()], {
  $id: 'OddsValue',
  description:
    'decimal (number), american (integer number), fractional (string on the traditional ladder such as "7/4") or fractional_exact (string such as "23/12", converts back to the decimal exactly); null when unpriced',
});

type OddsFormatTuple = ['decimal', 'american', 'fractional', 'fractional_exact'];
export const OddsFormatSchema = StringEnum(ODDS_FORMATS as OddsFormatTuple, {
  $id: 'OddsFormat',
  description: 'odds format of every odds value',
});

export const OddsFormatParam = Type.Optional(
  Type.Enum(ODDS_FORMATS as OddsFormatTuple, { default: 'decimal', description: 'odds format of every odds value' }),
);

export const OddsFormatQuery = Type.Object({ odds_format: OddsFormatParam });

export const EventIdParams = Type.Object({
  eventId: Type.String({ minLength: 1, maxLength: 128, description: 'event identifier' }),
});

export const LimitParam = (def: number | undefined, description = '1 to 200') =>
  Type.Optional(
    Type.Integer(
      def === undefined
        ? { minimum: 1, maximum: 200, description }
        : { minimum: 1, maximum: 200, default: def, description },
    ),
  );

export const OffsetParam = Type.Optional(
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: '>= 0' }),
);
