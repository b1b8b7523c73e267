// Shared TypeBox schemas: errors, scores, odds values, enums and the odds-format parameter.
import { Type, type TUnsafe } from 'typebox';
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

export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  404: ErrorSchema,
  429: ErrorSchema,
  500: ErrorSchema,
} as const;

export const ScoreSchema = Type.Object({ home: Type.Integer(), away: Type.Integer() }, { $id: 'Score' });

export const PeriodScoreSchema = Type.Object(
  { period: Type.String(), home: Type.Integer(), away: Type.Integer() },
  { $id: 'PeriodScore' },
);

export const OddsValueSchema = Type.Union([Type.Number(), Type.String(), Type.Null()], {
  $id: 'OddsValue',
  description: 'decimal (number), american (integer number) or fractional (string such as "3/2"); null when unpriced',
});

type OddsFormatTuple = ['decimal', 'american', 'fractional'];
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
