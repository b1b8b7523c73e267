// The player prop descriptor: one family per player and counter (`player_goals_p1234`), graded on final stats.
import { describeStat } from '../grading/describe.js';
import { gradePlayerProp, isPlayerPropFamily } from '../grading/player-props.js';
import { fixed, type FamilyDescriptor } from './types.js';

/** Stands for every `player_<stat>_<player_id>` family (its `key` is the pattern as docs write it). */
export const PLAYER_PROP: FamilyDescriptor = {
  key: 'player_<stat>_<player_id>',
  doc: "a player's counter in the final stats over or under the line",
  name: '<player> <stat>',
  line: 'quarters',
  period: 'none',
  outcomes: fixed('over', 'under'),
  grade: gradePlayerProp,
  explain: describeStat,
  main: false,
  section: 'result',
};

export { isPlayerPropFamily };
