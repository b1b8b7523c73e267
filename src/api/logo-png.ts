// Logo PNGs: a generated team badge (colours from the logo id, the team's initials) and the placeholder.
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphPixel } from './logo-font.js';

export interface PngImage {
  bytes: Buffer;
  etag: string;
}

const SIZE = 64;

function finish(png: PNG): PngImage {
  const bytes = PNG.sync.write(png, { colorType: 6 });
  return { bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
}

function put(png: PNG, x: number, y: number, rgb: readonly number[], alpha = 255): void {
  const i = (y * png.width + x) * 4;
  png.data[i] = rgb[0] ?? 0;
  png.data[i + 1] = rgb[1] ?? 0;
  png.data[i + 2] = rgb[2] ?? 0;
  png.data[i + 3] = alpha;
}

/** Draws a disc with a ring; everything outside stays transparent. */
function disc(png: PNG, fill: readonly number[], ring: readonly number[]): void {
  const c = (SIZE - 1) / 2;
  const r = SIZE * 0.46;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const d = Math.hypot(x - c, y - c);
      if (d <= r) put(png, x, y, d >= r - SIZE * 0.07 ? ring : fill);
    }
  }
}

/** The default placeholder: a neutral grey disc, the same bytes every time. */
export function renderPlaceholderLogo(): PngImage {
  const png = new PNG({ width: SIZE, height: SIZE });
  disc(png, [0xd4, 0xd9, 0xdf], [0x9a, 0xa3, 0xad]);
  return finish(png);
}

/** Up to three initials: first letters of the significant words ("Manchester City FC" → "MC"). */
export function initialsOf(teamName: string): string {
  const filler = new Set([
    'FC',
    'CF',
    'SC',
    'AFC',
    'CD',
    'AC',
    'SV',
    'FK',
    'THE',
    'DE',
    'OF',
    'VFB',
    'VFL',
    'TSG',
    'BC',
  ]);
  const words = teamName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w.length > 0);
  const significant = words.filter((w) => !filler.has(w));
  const chosen = significant.length > 0 ? significant : words;
  if (chosen.length === 1) return (chosen[0] ?? '?').slice(0, 3);
  return chosen
    .slice(0, 3)
    .map((w) => w[0])
    .join('');
}

/** HSL (h in degrees, s and l in 0..1) to RGB bytes. */
function hsl(h: number, s: number, l: number): number[] {
  const k = (n: number): number => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/** A deterministic badge: colours hashed from the logo id, the team's initials in white. */
export function renderTeamLogo(logoId: string, teamName: string): PngImage {
  const digest = createHash('sha256').update(logoId).digest();
  const hue = ((digest[0] ?? 0) * 256 + (digest[1] ?? 0)) % 360;
  const png = new PNG({ width: SIZE, height: SIZE });
  disc(png, hsl(hue, 0.55, 0.42), hsl((hue + 180) % 360, 0.6, 0.55));
  const text = initialsOf(teamName);
  const scale = text.length >= 3 ? 3 : 4;
  const gap = scale;
  const width = text.length * GLYPH_WIDTH * scale + (text.length - 1) * gap;
  const left = Math.round((SIZE - width) / 2);
  const top = Math.round((SIZE - GLYPH_HEIGHT * scale) / 2);
  [...text].forEach((ch, i) => {
    const x0 = left + i * (GLYPH_WIDTH * scale + gap);
    for (let gy = 0; gy < GLYPH_HEIGHT; gy++) {
      for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
        if (!glyphPixel(ch, gx, gy)) continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) put(png, x0 + gx * scale + dx, top + gy * scale + dy, [255, 255, 255]);
        }
      }
    }
  });
  return finish(png);
}
