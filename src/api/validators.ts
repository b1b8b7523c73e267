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
    // verbose: a refused pattern or format is told with the value and the parameter's description
    // (errors.ts), not as a regular expression.
    const lenient = build(externalSchemas, {
      ...ajvOptions,
      customOptions: { ...ajvOptions.customOptions, strictNumbers: true, verbose: true },
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

/** A number as a client writes one in a URL: decimal digits, an optional sign and fraction. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The text of a flat object's fields before Ajv coerces them: strings, and how many times a field was repeated. */
function textOf(data: unknown): Map<string, string | number> {
  const text = new Map<string, string | number>();
  if (typeof data !== 'object' || data === null) return text;
  for (const [name, value] of Object.entries(data)) {
    if (typeof value === 'string') text.set(name, value);
    else if (Array.isArray(value)) text.set(name, value.length);
  }
  return text;
}

/**
 * The first field of a flat object (query, path, headers) that Ajv made a number which is not a
 * finite number, or not written in decimal digits (Number() also reads `0x10`, `1e2`, ` 5`, `+5`).
 */
function badNumber(data: unknown, text: Map<string, string | number>): SchemaError | null {
  if (typeof data !== 'object' || data === null) return null;
  for (const [name, value] of Object.entries(data)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'number' && !Number.isFinite(v)))
      return typeError(name, 'must be a finite number');
    const raw = text.get(name);
    if (typeof value === 'number' && typeof raw === 'string' && !DECIMAL.test(raw)) {
      return typeError(name, 'must be a number written in decimal digits');
    }
  }
  return null;
}

function typeError(field: string, message: string): SchemaError {
  return { instancePath: `/${field}`, keyword: 'type', message, params: {} };
}

/** A refusal of a field the client repeated (`limit=5&limit=6`) says so, rather than "must be integer". */
function repeated(errors: SchemaError[] | null | undefined, text: Map<string, string | number>): SchemaError[] | null {
  const field = errors?.[0]?.instancePath.split('/')[1];
  const count = field === undefined ? undefined : text.get(field);
  if (field === undefined || typeof count !== 'number') return errors ?? null;
  return [typeError(field, `must be given once, not ${count} times`)];
}

/**
 * Ajv coerces the text `Infinity` into a number and then passes it even past a `maximum`
 * (strictNumbers only judges values that were numbers already): `offset=Infinity` was echoed
 * into a page as `"offset":Infinity`, which is not JSON. Coerced parts are checked once more,
 * against the text the client sent.
 */
function finiteOnly(validate: Validate): Validate {
  const checked: Validate = (data) => {
    const text = textOf(data);
    if (!validate(data)) {
      checked.errors = repeated(validate.errors, text);
      return false;
    }
    const error = badNumber(data, text);
    if (error !== null) {
      checked.errors = [error];
      return false;
    }
    checked.errors = null;
    return true;
  };
  return checked;
}
