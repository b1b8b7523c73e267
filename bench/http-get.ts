// A GET that returns the bytes as sent (fetch would decode br and gzip), for comparing coded answers.
import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  contentType: string;
  /** The Content-Encoding header, '' when absent. */
  contentEncoding: string;
  body: Buffer;
}

export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          contentEncoding: res.headers['content-encoding'] ?? '',
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
