// Request validation: strict (no type coercion) for JSON bodies, Fastify's usual coercion for query, path and headers.
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

/**
 * Why two: Fastify's one Ajv instance coerces types (`coerceTypes: 'array'`), which is what a
 * query string needs (`limit=5` is text) but wrong for a JSON body, where `{"ids": "x"}` became
 * `["x"]`, `[1, 2]` became `["1", "2"]` and `"2.1"` became odds 2.1. A JSON body already has its
 * types: it is validated as sent. Both keep `useDefaults` and Fastify's other defaults, and both
 * refuse NaN and Infinity where a number is expected.
 */
export function splitValidatorFactory(): ValidatorFactory {
  const build = (AjvCompiler as unknown as () => ValidatorFactory)();
  return ((externalSchemas: Record<string, unknown>, ajvOptions: { customOptions?: Record<string, unknown> }) => {
    // strictNumbers: NaN and Infinity are no numbers (`offset=Infinity`, a body's `1e400`).
    const lenient = build(externalSchemas, {
      ...ajvOptions,
      customOptions: { ...ajvOptions.customOptions, strictNumbers: true },
    } as never);
    const strict = build(externalSchemas, {
      ...ajvOptions,
      customOptions: { ...ajvOptions.customOptions, strictNumbers: true, coerceTypes: false },
    } as never);
    return (route: { httpPart?: string }) =>
      route.httpPart === 'body'
        ? (strict(route as never) as unknown)
        : finiteOnly(lenient(route as never) as unknown as Validate);
  }) as unknown as ValidatorFactory;
}

interface SchemaError {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}
type Validate = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/** The first field of a flat object (query, path, headers) whose value is a non-finite number. */
function nonFiniteField(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  for (const [name, value] of Object.entries(data)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) return name;
  }
  return null;
}

/**
 * Ajv coerces the text `Infinity` into a number and then passes it even past a `maximum`
 * (strictNumbers only judges values that were numbers already): `offset=Infinity` was echoed
 * into a page as `"offset":Infinity`, which is not JSON. Coerced parts are checked once more.
 */
function finiteOnly(validate: Validate): Validate {
  const checked: Validate = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors ?? null;
      return false;
    }
    const field = nonFiniteField(data);
    if (field !== null) {
      checked.errors = [{ instancePath: `/${field}`, keyword: 'type', message: 'must be a finite number', params: {} }];
      return false;
    }
    checked.errors = null;
    return true;
  };
  return checked;
}
