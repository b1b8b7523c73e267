// TypeBox schemas of discovery and operational resources: leagues, sports, scores, health, status, feed report.
import { Type } from 'typebox';
import { ScoreSchema } from './common.js';

export const LeagueListSchema = Type.Object({
  leagues: Type.Array(
    Type.Object({
      slug: Type.String({ description: 'stable identifier, usable as the league filter' }),
      name: Type.String(),
      country: Type.String(),
      sport: Type.Object({ key: Type.String(), name: Type.String() }),
      active_events: Type.Integer({ description: 'live plus prematch events' }),
      live_events: Type.Integer(),
    }),
  ),
  total: Type.Integer(),
});

export const SportListSchema = Type.Object({
  sports: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      sport_id: Type.Integer(),
      active_events: Type.Integer(),
      live_events: Type.Integer(),
      has_outrights: Type.Boolean(),
    }),
  ),
  total: Type.Integer(),
});

export const ScoreListSchema = Type.Object({
  scores: Type.Array(
    Type.Object({
      id: Type.String(),
      home_team: Type.String(),
      away_team: Type.String(),
      score: ScoreSchema,
      status: Type.String(),
      clock: Type.String(),
      period: Type.String(),
      sport: Type.String(),
    }),
  ),
  total: Type.Integer(),
});

export const HealthSchema = Type.Object({
  status: Type.String({ description: 'healthy, or degraded (HTTP 503) when a component fails' }),
  component: Type.Optional(
    Type.String({
      description:
        'when degraded: the failing part, as `component` names it on a 503 error (datastore, usage_counters, data_pipeline)',
    }),
  ),
  version: Type.String(),
  uptime_seconds: Type.Integer(),
  timestamp: Type.String({ format: 'date-time' }),
  services: Type.Object({
    datastore: Type.Object({
      status: Type.String({
        description:
          'connected; read_only when writes fail (disk full) but reads work; disconnected when it does not answer',
      }),
      latency_ms: Type.Integer(),
    }),
    data_pipeline: Type.Object({
      status: Type.String({ description: 'active, or stale when live events stopped changing' }),
      last_update_seconds_ago: Type.Integer(),
      total_events: Type.Integer(),
    }),
    usage_counters: Type.Optional(
      Type.Object({
        status: Type.String({ description: 'scaled out (REDIS_URL): connected or disconnected' }),
      }),
    ),
  }),
});

export const StatusSchema = Type.Object({
  status: Type.String(),
  version: Type.String(),
  data_freshness_ms: Type.Integer(),
  active_sports: Type.Integer(),
  live_events: Type.Integer(),
  prematch_events: Type.Integer(),
});

export const FeedReportSchema = Type.Object({
  accepted: Type.Integer(),
  rejected: Type.Integer(),
  errors: Type.Array(
    Type.Object({
      line: Type.Integer(),
      error: Type.String(),
      message: Type.String(),
      /** The failing part when a line was refused with `service_unavailable` (e.g. `datastore`). */
      component: Type.Optional(Type.String()),
      /** Present (true) when the line was refused for a transient reason: send it again later, in order. */
      retryable: Type.Optional(Type.Literal(true)),
    }),
  ),
});
