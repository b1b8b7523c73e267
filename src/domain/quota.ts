// Quota rules as pure functions: plans, UTC calendar days and months, warning levels and the error-rate notice.

/** A plan: what a key may use. `null` means no limit of that kind. */
export interface Plan {
  name: string;
  /** Requests per calendar month (UTC). */
  perMonth: number | null;
  /** Requests per second. */
  perSecond: number | null;
  /** Streams (`GET /v1/stream`) a key may hold open at once. */
  streams: number | null;
  /** Webhook subscriptions a key may have (docs/webhooks.md). */
  webhooks: number | null;
}

/** The plans every installation has; `PLANS` may change them or add more (docs/quotas.md). */
export const DEFAULT_PLANS: Readonly<Record<string, Plan>> = {
  free: { name: 'free', perMonth: 10_000, perSecond: 5, streams: 1, webhooks: 2 },
  starter: { name: 'starter', perMonth: 100_000, perSecond: 20, streams: 3, webhooks: 5 },
  pro: { name: 'pro', perMonth: 1_000_000, perSecond: 100, streams: 10, webhooks: 25 },
  // A developer's own install (the demo key's default): no monthly cap, a browser's console and a
  // few example scripts at once never throttled.
  developer: { name: 'developer', perMonth: null, perSecond: 50, streams: 10, webhooks: 10 },
  // For benchmarks and internal use (decisions.md): counted, never limited.
  unlimited: { name: 'unlimited', perMonth: null, perSecond: null, streams: null, webhooks: null },
};

/** The plan of keys whose stored plan is no longer configured. */
export const FALLBACK_PLAN = 'free';

/** interface.md: `/v1/health` and `/v1/status`, per caller, equal for all plans. */
export const HEALTH_LIMITS = { perSecond: 2, perHour: 120 } as const;

/** decisions.md: more than 20% of at least 50 requests of the last hour answered 4xx/5xx. */
export const ERROR_RATE_MIN_REQUESTS = 50;
export const ERROR_RATE_SHARE = 0.2;

const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

function limitOf(value: unknown, plan: string, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(
      `plan '${plan}': ${field} must be a whole number >= 1 or null (no limit), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * Reads `PLANS` (JSON: `{"name": {"per_month": n|null, "per_second": n|null, "streams": n|null}}`),
 * merged over the defaults: a listed plan replaces the default of that name, the others stay.
 * `streams` is optional: the default plan's of that name, else 1. Throws an Error whose message
 * names the faulty plan and field.
 */
export function parsePlans(text: string | null): Record<string, Plan> {
  const plans: Record<string, Plan> = { ...DEFAULT_PLANS };
  if (text === null || text.trim() === '') return plans;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON object like {"team": {"per_month": 500000, "per_second": 50}}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('must be a JSON object of plans by name');
  }
  for (const [name, spec] of Object.entries(parsed as Record<string, unknown>)) {
    if (!PLAN_NAME.test(name)) {
      throw new Error(`plan name '${name}' must be 1-32 lower-case letters, digits, '-' or '_'`);
    }
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
      throw new Error(`plan '${name}' must be an object with per_month and per_second`);
    }
    const fields = spec as Record<string, unknown>;
    for (const field of Object.keys(fields)) {
      if (field !== 'per_month' && field !== 'per_second' && field !== 'streams' && field !== 'webhooks') {
        throw new Error(`plan '${name}': unknown field '${field}' (expected per_month, per_second, streams, webhooks)`);
      }
    }
    if (!('per_month' in fields) || !('per_second' in fields)) {
      throw new Error(`plan '${name}' needs both per_month and per_second (null for no limit)`);
    }
    plans[name] = {
      name,
      perMonth: limitOf(fields.per_month, name, 'per_month'),
      perSecond: limitOf(fields.per_second, name, 'per_second'),
      streams: 'streams' in fields ? limitOf(fields.streams, name, 'streams') : (DEFAULT_PLANS[name]?.streams ?? 1),
      webhooks:
        'webhooks' in fields ? limitOf(fields.webhooks, name, 'webhooks') : (DEFAULT_PLANS[name]?.webhooks ?? 2),
    };
  }
  return plans;
}

/** The configured plans; a key on a plan no longer configured gets the free plan's limits. */
export class PlanBook {
  private readonly byName: ReadonlyMap<string, Plan>;
  private readonly fallback: Plan;

  constructor(plans: Readonly<Record<string, Plan>>) {
    this.byName = new Map(Object.entries(plans));
    this.fallback = plans[FALLBACK_PLAN] ?? DEFAULT_PLANS[FALLBACK_PLAN]!;
  }

  /** The plan of that name, or the free plan. */
  of(name: string): Plan {
    return this.byName.get(name) ?? this.fallback;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): Plan[] {
    return [...this.byName.values()];
  }
}

/** A UTC calendar day and the month it belongs to. */
export interface UtcDay {
  /** First and first-after millisecond of the day. */
  start: number;
  end: number;
  monthStart: number;
  /** The instant the month turns: the next month's first millisecond. */
  monthEnd: number;
  /** 1-31. */
  dayOfMonth: number;
  /** `YYYY-MM-DD`. */
  date: string;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

export function utcDay(ms: number): UtcDay {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  const start = Date.UTC(y, m, day);
  return {
    start,
    end: Date.UTC(y, m, day + 1),
    monthStart: Date.UTC(y, m, 1),
    monthEnd: Date.UTC(y, m + 1, 1),
    dayOfMonth: day,
    date: `${y}-${pad2(m + 1)}-${pad2(day)}`,
  };
}

/** `YYYY-MM-DD` of a day of the month that starts at `monthStart`. */
export function dateInMonth(monthStart: number, dayOfMonth: number): string {
  const d = new Date(monthStart);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(dayOfMonth)}`;
}

/** Whole seconds from `now` until `at`, at least 1 (what Retry-After carries). */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

export type WarningLevel = 'info' | 'warning' | 'critical' | 'blocked';

export interface UsageWarning {
  level: WarningLevel;
  message: string;
  percent?: number;
}

/** Share of the quota used, in percent, rounded down to 2 decimals (80.004% shows 80, not 80.01). */
export function quotaPercent(used: number, limit: number): number {
  return Math.floor((used * 10_000) / limit) / 100;
}

/**
 * decisions.md: `info` from 50%, `warning` above 80%, `critical` above 95%, `blocked` at 100%.
 * Compared in integers so 80.0% exactly stays `info` whatever the floating point says.
 */
export function quotaLevel(used: number, limit: number): WarningLevel | null {
  if (used >= limit) return 'blocked';
  if (used * 100 > limit * 95) return 'critical';
  if (used * 100 > limit * 80) return 'warning';
  if (used * 100 >= limit * 50) return 'info';
  return null;
}

export function elevatedErrorRate(requests: number, errors: number): boolean {
  return requests >= ERROR_RATE_MIN_REQUESTS && errors > requests * ERROR_RATE_SHARE;
}

export interface WarningInput {
  /** Requests counted this month, and the plan's monthly quota (null: none). */
  used: number;
  limit: number | null;
  /** When the month turns (the quota resets). */
  monthEnd: number;
  /** Counted requests of the last hour and how many were answered 4xx/5xx. */
  hourRequests: number;
  hourErrors: number;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** The active warnings: the highest quota level reached (one at most), then the error-rate notice. */
export function usageWarnings(input: WarningInput): UsageWarning[] {
  const warnings: UsageWarning[] = [];
  const { used, limit } = input;
  const level = limit === null ? null : quotaLevel(used, limit);
  if (level !== null && limit !== null) {
    const percent = quotaPercent(used, limit);
    const resets = new Date(input.monthEnd).toISOString();
    const usedText = `${count(used)} of ${count(limit)} requests`;
    const message =
      level === 'blocked'
        ? `monthly quota exhausted (${usedText}); requests are refused until it resets at ${resets}`
        : level === 'info'
          ? `${percent}% of the monthly quota used (${usedText}); it resets at ${resets}`
          : `more than ${level === 'critical' ? 95 : 80}% of the monthly quota used (${usedText}); it resets at ${resets}`;
    warnings.push({ level, message, percent });
  }
  if (elevatedErrorRate(input.hourRequests, input.hourErrors)) {
    const share = Math.round((input.hourErrors * 100) / input.hourRequests);
    warnings.push({
      level: 'warning',
      message: `elevated error rate: ${count(input.hourErrors)} of your last hour's ${count(input.hourRequests)} requests (${share}%) were answered with an error (4xx/5xx)`,
    });
  }
  return warnings;
}
