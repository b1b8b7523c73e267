// The placeholder logo: a small PNG rendered once at start-up (neutral shield on a light background).
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';

export interface PngImage {
  bytes: Buffer;
  etag: string;
}

/** 64×64: a grey disc on a transparent background, the same bytes every time. */
export function renderPlaceholderLogo(size = 64): PngImage {
  const png = new PNG({ width: size, height: size });
  const c = (size - 1) / 2;
  const r = size * 0.46;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const d = Math.hypot(x - c, y - c);
      const inside = d <= r;
      const ring = inside && d >= r - size * 0.06;
      png.data[i] = ring ? 0x9a : 0xd4;
      png.data[i + 1] = ring ? 0xa3 : 0xd9;
      png.data[i + 2] = ring ? 0xad : 0xdf;
      png.data[i + 3] = inside ? 0xff : 0x00;
    }
  }
  const bytes = PNG.sync.write(png, { colorType: 6 });
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return { bytes, etag };
}
