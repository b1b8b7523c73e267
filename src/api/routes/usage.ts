// A key's own usage: GET /v1/usage (counted) and GET /v1/usage/warnings (not counted, still answers when blocked).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context.js';
import { usageBody, warningsBody } from '../quota/report.js';
import { errorsOf } from '../schemas/common.js';
import { UsageSchema, WarningsSchema } from '../schemas/usage.js';

export function usageRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/usage',
      {
        schema: {
          operationId: 'getUsage',
          tags: ['account'],
          summary: "The calling key's plan, limits and counted requests this month, by day",
          response: { 200: UsageSchema, ...errorsOf(401, 429, 503) },
        },
      },
      async (request) => {
        const key = request.apiKey!;
        const plan = ctx.plans.of(key.plan);
        return usageBody(plan, await ctx.usage.snapshot(key.id, ctx.now()));
      },
    );

    app.get(
      '/v1/usage/warnings',
      {
        config: { metering: 'uncounted' },
        schema: {
          operationId: 'getUsageWarnings',
          tags: ['account'],
          summary: 'Active warnings of the calling key: quota thresholds and elevated error rate (not counted)',
          response: { 200: WarningsSchema, ...errorsOf(401, 429, 503) },
        },
      },
      async (request) => {
        const key = request.apiKey!;
        const plan = ctx.plans.of(key.plan);
        const body = warningsBody(plan, await ctx.usage.snapshot(key.id, ctx.now()));
        // A webhook disabled for failing is news its owner must not miss (docs/webhooks.md).
        for (const sub of (await ctx.webhooks?.failing(key.id)) ?? []) {
          body.warnings.push({
            level: 'warning',
            message: `webhook ${sub.id} (${sub.url}) was disabled after failing since ${new Date(sub.failingSince ?? sub.updatedAt).toISOString()}; fix the receiver, then PATCH /v1/webhooks/${sub.id} with enabled=true to deliver its queue`,
          });
        }
        return body;
      },
    );
  };
}
