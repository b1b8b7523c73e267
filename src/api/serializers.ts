// Response serialization: Fastify's own serializers (fast-json-stringify), each compiled once per process and reused by every app built in it.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;
type Serializer = (doc: unknown) => string;

/** Compiled serializers by what they were compiled from: the shared schemas, the options and the response schema. */
const compiled = new Map<string, Serializer>();

/**
 * Compiling every route's response schemas is most of the work of building the app (about half a
 * second of CPU). A service builds it once; a process that builds it many times (the tests start a
 * service per case) compiled the same schemas again each time. A serializer is a pure function of
 * its schema, the shared schemas it refers to and the options, so one compiled for the same three
 * serves every app.
 */
export function cachedSerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return ((externalSchemas: unknown, options: unknown) => {
    const compile = build(externalSchemas, options as never);
    const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
    return (route: { schema?: unknown; method: string; url: string; httpStatus: string }) => {
      const key = `${context}\n${JSON.stringify(route.schema ?? null)}`;
      let serializer = compiled.get(key);
      if (serializer === undefined) {
        serializer = compile(route) as Serializer;
        compiled.set(key, serializer);
      }
      return serializer;
    };
  }) as unknown as SerializerFactory;
}
