// Serves team logos: drawn on first request from the logo id and its team's name, then kept in a bounded cache.
import type { ReadModel } from '../live/read-model.js';
import { renderTeamLogo, type PngImage } from './logo-png.js';
import type { LogoSource } from './routes/logo.js';

const MAX_CACHED = 20_000;

export function teamLogoSource(readModel: ReadModel): LogoSource {
  const cache = new Map<string, PngImage>();
  return (logoId) => {
    const hit = cache.get(logoId);
    if (hit !== undefined) return hit;
    const team = readModel.logoTeams.get(logoId);
    if (team === undefined) return undefined;
    const image = renderTeamLogo(logoId, team);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(logoId, image);
    return image;
  };
}
