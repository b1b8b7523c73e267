// Stored odds history chunks: version 2 is kept as it is behind a marker no deflate stream starts with; deflated chunks of version 1 still read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeHistory, encodeHistory, historyColumns } from '../../src/live/history-codec.js';
import { readStoredHistory, storedHistory, STORED_AS_IS } from '../../src/store/history-blob.js';

function columns(n: number) {
  const c = historyColumns(n);
  for (let k = 0; k < n; k++) {
    c.at[k] = 1_764_000_000_000 + 300 * Math.floor(k / 10);
    c.marketIds[k] = 1_700_000_000_000 + (k % 13);
    c.selectionIds[k] = 1_700_000_000_100 + k;
    c.odds[k] = 1.5 + k / 100;
    c.locked[k] = k % 7 === 0 ? 1 : 0;
  }
  return c;
}

describe('stored odds history chunks', () => {
  it('a chunk is stored as it is behind the marker and read back byte for byte', () => {
    const chunk = encodeHistory(columns(200), 200);
    const stored = storedHistory(chunk);
    assert.equal(stored[0], STORED_AS_IS);
    assert.equal(stored.byteLength, chunk.byteLength + 1);
    assert.deepEqual(new Uint8Array(readStoredHistory(stored)), chunk);
  });

  it('the marker cannot begin a raw deflate stream (so a stored chunk is never inflated by mistake)', () => {
    assert.throws(() => inflateRawSync(storedHistory(encodeHistory(columns(5), 5))));
  });

  it('a deflated chunk (as stored before version 2) is inflated', () => {
    const c = columns(50);
    const chunk = encodeHistory(c, 50);
    assert.deepEqual(decodeHistory(readStoredHistory(deflateRawSync(chunk, { level: 1 }))), c);
  });
});
