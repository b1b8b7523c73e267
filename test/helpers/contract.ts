// Validates payloads against the served OpenAPI document, strictly: every object closed (no undeclared field).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A deep copy where every object schema that names its properties and says nothing of others gets
 * `additionalProperties: false`: a field the service writes but the document does not declare fails.
 */
export function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = closeObjects(v);
  const declares = 'properties' in node || node.type === 'object';
  if (declares && !('additionalProperties' in node) && !('patternProperties' in node)) {
    out.additionalProperties = false;
  }
  return out;
}

const pointer = (...parts: string[]): string => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown; 'x-sse-events'?: Record<string, Json> }> }>;
}

export class ContractValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** What was checked: `GET /v1/events 200`, `sse odds`… */
  readonly checked = new Set<string>();

  constructor(readonly doc: { paths: Record<string, Record<string, Operation>> }) {
    addFormats(this.ajv);
    this.ajv.addSchema(closeObjects(doc) as Json, 'openapi');
  }

  private validator(ref: string): ValidateFunction {
    let v = this.compiled.get(ref);
    if (v === undefined) {
      v = this.ajv.compile({ $ref: `openapi#/${ref}` });
      this.compiled.set(ref, v);
    }
    return v;
  }

  private check(ref: string, data: unknown, what: string): void {
    const validate = this.validator(ref);
    if (!validate(data)) {
      const errors = (validate.errors ?? [])
        .slice(0, 8)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      throw new Error(
        `${what} does not match the document:\n  ${errors.join('\n  ')}\n  payload: ${JSON.stringify(data).slice(0, 600)}`,
      );
    }
    this.checked.add(what);
  }

  /** The JSON body of an answer against its operation's response schema (the path as documented: /v1/events/{eventId}). */
  response(method: string, path: string, status: number, body: unknown): void {
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    if (op === undefined) throw new Error(`${method} ${path} is not in the document`);
    const response = op.responses[String(status)];
    if (response === undefined) throw new Error(`${method} ${path} does not document status ${status}`);
    if (response.content?.['application/json']?.schema === undefined) {
      throw new Error(`${method} ${path} ${status} documents no JSON body`);
    }
    const ref = pointer(
      'paths',
      path,
      method.toLowerCase(),
      'responses',
      String(status),
      'content',
      'application/json',
      'schema',
    );
    this.check(ref, body, `${method.toUpperCase()} ${path} ${status}`);
  }

  /** The data of a stream event against the schema the document gives its event name. */
  sseEvent(event: string, data: unknown): void {
    const media = this.doc.paths['/v1/stream']?.get?.responses['200']?.content?.['text/event-stream'];
    const target = media?.['x-sse-events']?.[event]?.$ref;
    if (typeof target !== 'string') throw new Error(`the document has no schema for stream event '${event}'`);
    this.check(target.replace(/^#\//, ''), data, `sse ${event}`);
  }
}
