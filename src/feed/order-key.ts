// Which feed messages must keep their order among themselves: those about one event, or about one tournament.

/**
 * The key of the messages whose relative order matters to the pipeline: a producer that holds one
 * back (to send it again) holds back every later message with the same key too.
 */
export function orderKeyOf(m: { event_id?: string; tournament_id?: string }): string {
  if (m.tournament_id !== undefined) return `t:${m.tournament_id}`;
  return `e:${m.event_id ?? ''}`;
}
