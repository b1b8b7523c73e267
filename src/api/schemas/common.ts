// Shared TypeBox schemas: errors, scores, odds values and the odds-format parameter.
import { Type } from 'typebox';
import { ODDS_FORMATS } from '../../domain/types.js';

export const ErrorSchema = Type.Object(
  {
    error: Type.String({
      description:
        'machine code: bad_request, unauthorized, not_found, rate_limited, server_error, service_unavailable',
    }),
    message: Type.String({ description: 'human text, not contractual' }),
    component: Type.Optional(Type.String({ description: 'failing part, on service_unavailable' })),
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

export const ScoreSchema = Type.Object({ home: Type.Integer(), away: Type.Integer() });

export const OddsValueSchema = Type.Union([Type.Number(), Type.String(), Type.Null()], {
  description: 'decimal (number), american (integer number) or fractional (string such as "3/2")',
});

export const OddsFormatParam = Type.Optional(
  Type.Enum(ODDS_FORMATS as OddsFormatTuple, { default: 'decimal', description: 'odds format of every odds value' }),
);
type OddsFormatTuple = ['decimal', 'american', 'fractional'];

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
