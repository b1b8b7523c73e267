// Usage and warnings as a client reads them, plus helpers to make keys on chosen plans in a test service.
import type { TestService } from './service.js';

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

export interface Warning {
  level: 'info' | 'warning' | 'critical' | 'blocked';
  message: string;
  percent?: number;
}

export interface WarningsBody {
  warnings: Warning[];
}

/** Plans the quota tests use, in the PLANS syntax operators write. */
export const TEST_PLANS = JSON.stringify({
  // Counted but never limited within a test.
  meter: { per_month: 1_000_000, per_second: null },
  tiny: { per_month: 10, per_second: null },
  hundred: { per_month: 100, per_second: null },
});

/** A new key on `plan` (created through this node's key admin); returns its secret. */
export async function keyOn(svc: TestService, plan: string, name = `${plan} key`): Promise<string> {
  const { secret } = await svc.service.keyAdmin.create({ name, plan, accountId: null });
  return secret;
}

export async function usageOf(svc: TestService, key: string): Promise<UsageBody> {
  const res = await svc.get<UsageBody>('/v1/usage', { key });
  if (res.status !== 200) throw new Error(`/v1/usage answered ${res.status}: ${res.text}`);
  return res.body;
}

export async function warningsOf(svc: TestService, key: string): Promise<Warning[]> {
  const res = await svc.get<WarningsBody>('/v1/usage/warnings', { key });
  if (res.status !== 200) throw new Error(`/v1/usage/warnings answered ${res.status}: ${res.text}`);
  return res.body.warnings;
}
