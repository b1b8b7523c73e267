// The family index of docs/markets.md, rendered from the descriptors (scripts/families-doc.mjs writes it; a test compares).
import { FAMILIES } from './index.js';
import { PLAYER_PROP } from './player-props.js';
import type { FamilyDescriptor } from './types.js';

/** The lines around the generated table in docs/markets.md. */
export const INDEX_BEGIN =
  '<!-- family-index:begin (generated from src/domain/families/, scripts/families-doc.mjs) -->';
export const INDEX_END = '<!-- family-index:end -->';

const SCOPE: Readonly<Record<FamilyDescriptor['period'], string>> = {
  any: 'full game or `@period`',
  none: 'fixed by the family',
  required: '`@period` only',
};

const LINE: Readonly<Record<FamilyDescriptor['line'], string>> = {
  none: 'none',
  quarters: '`:L`, L × 4 whole',
  whole: '`:L`, L whole',
};

const SECTION: Readonly<Record<FamilyDescriptor['section'], string>> = {
  result: 'simulator',
  lines: 'simulator',
  accepted: 'other producers',
};

function outcomes(d: FamilyDescriptor): string {
  return d.outcomes.kind === 'fixed' ? d.outcomes.codes.map((c) => `\`${c}\``).join(', ') : d.outcomes.text;
}

/** Settlement order (docs/settlement.md): main first, then period and exotic markets, player props last. */
function phase(d: FamilyDescriptor): string {
  if (d === PLAYER_PROP) return 'player props (last, on final stats)';
  if (d.main) return 'main (first) on the full game; period and exotic in a period';
  return 'period and exotic';
}

function row(d: FamilyDescriptor): string {
  return `| \`${d.key}\` | ${d.doc} | ${outcomes(d)} | ${LINE[d.line]} | ${SCOPE[d.period]} | ${phase(d)} | ${SECTION[d.section]} |`;
}

/** The markdown table, one row per descriptor, player props last (prettier then aligns it). */
export function familyIndexTable(): string {
  return [
    '| family | what it settles | outcome codes | line | period | settlement phase | priced by |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...[...FAMILIES, PLAYER_PROP].map(row),
  ].join('\n');
}
