// Query strings whose percent-encoding is broken (`league=%ZZ`): named, so they answer 400 rather than filter on bytes nobody sent.

/**
 * The first query parameter (by name, decoded where the name itself is readable) whose name or
 * value is not valid percent-encoding of UTF-8, or null. Fastify's query parser keeps such bytes
 * as they are, so a filter on them matched nothing and answered 200 with an empty list, while the
 * same bytes in a path answer 400.
 */
export function badlyEncodedParameter(rawUrl: string): string | null {
  const q = rawUrl.indexOf('?');
  if (q < 0 || !rawUrl.includes('%', q)) return null;
  for (const part of rawUrl.slice(q + 1).split('&')) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part);
    } catch {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      try {
        return decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        return name;
      }
    }
  }
  return null;
}
