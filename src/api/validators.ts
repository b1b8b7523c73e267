// Request validation: strict (no type coercion) for JSON bodies, Fastify's usual coercion for query, path and headers.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

/**
 * The Ajv compiler builder Fastify uses by default, resolved from Fastify's own dependencies so it
 * is the very version Fastify would load (it is not a dependency of this project of its own).
 */
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const AjvCompiler = fastifyRequire('@fastify/ajv-compiler') as () => ValidatorFactory;

/**
 * Why two: Fastify's one Ajv instance coerces types (`coerceTypes: 'array'`), which is what a
 * query string needs (`limit=5` is text) but wrong for a JSON body, where `{"ids": "x"}` became
 * `["x"]`, `[1, 2]` became `["1", "2"]` and `"2.1"` became odds 2.1. A JSON body already has its
 * types: it is validated as sent. Both keep `useDefaults` and Fastify's other defaults.
 */
export function splitValidatorFactory(): ValidatorFactory {
  const build = AjvCompiler();
  return ((externalSchemas: Record<string, unknown>, ajvOptions: { customOptions?: Record<string, unknown> }) => {
    const lenient = build(externalSchemas, ajvOptions as never);
    const strict = build(externalSchemas, {
      ...ajvOptions,
      customOptions: { ...ajvOptions.customOptions, coerceTypes: false },
    } as never);
    return (route: { httpPart?: string }) => (route.httpPart === 'body' ? strict : lenient)(route as never) as unknown;
  }) as unknown as ValidatorFactory;
}
