// `team_totals_home:L`, `team_totals_away:L`: over/under on one side's score in the scope.
import { overUnder } from './totals.js';
import type { FamilyGrader } from './types.js';

export const gradeTeamTotalsHome: FamilyGrader = overUnder('games', (home) => home);
export const gradeTeamTotalsAway: FamilyGrader = overUnder('games', (_home, away) => away);
