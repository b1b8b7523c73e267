// The usage and warnings payloads of a key (GET /v1/usage, GET /v1/usage/warnings; the portal shows the same).
import { quotaPercent, usageWarnings, type Plan, type UsageWarning } from '../../domain/quota.js';
import type { ApiKeyRecord } from '../../store/store.js';
import type { UsageCounter, UsageSnapshot } from './counter.js';

export interface UsageBody {
  plan: string;
  limits: { per_second: number | null; per_month: number | null };
  current: {
    today: number;
    this_month: number;
    month_remaining: number | null;
    month_percent: number;
    errors_today: number;
  };
  daily: Array<{ date: string; requests: number; errors: number }>;
}

export interface WarningsBody {
  warnings: UsageWarning[];
}

/** `null` limits mean none (the `unlimited` plan): no remaining count, 0 percent. */
export function usageBody(plan: Plan, snap: UsageSnapshot): UsageBody {
  const limit = plan.perMonth;
  return {
    plan: plan.name,
    limits: { per_second: plan.perSecond, per_month: limit },
    current: {
      today: snap.today,
      this_month: snap.thisMonth,
      month_remaining: limit === null ? null : Math.max(0, limit - snap.thisMonth),
      month_percent: limit === null ? 0 : Math.min(100, quotaPercent(snap.thisMonth, limit)),
      errors_today: snap.errorsToday,
    },
    daily: snap.daily,
  };
}

export function warningsBody(plan: Plan, snap: UsageSnapshot): WarningsBody {
  return {
    warnings: usageWarnings({
      used: snap.thisMonth,
      limit: plan.perMonth,
      monthEnd: snap.monthEnd,
      hourRequests: snap.lastHour.requests,
      hourErrors: snap.lastHour.errors,
    }),
  };
}

/** Usage and warnings of any key (the portal's view of an account's keys); reading counts nothing. */
export async function keyUsage(
  deps: { usage: UsageCounter; plans: { of(name: string): Plan }; now: () => number },
  key: Pick<ApiKeyRecord, 'id' | 'plan'>,
): Promise<{ usage: UsageBody; warnings: UsageWarning[] }> {
  const plan = deps.plans.of(key.plan);
  const snap = await deps.usage.snapshot(key.id, deps.now());
  return { usage: usageBody(plan, snap), warnings: warningsBody(plan, snap).warnings };
}
