// Where seats sit on screen, what they are called, and which team is whose.

/** 'bottom' | 'right' | 'top' | 'left' for a seat, with `bottom` drawn at the bottom and turn
 * order running counter-clockwise (the next seat on the right) or clockwise (on the left). */
export function position(seat, bottom, direction) {
  const k = (seat - bottom + 4) % 4;
  if (k === 0) return 'bottom';
  if (k === 2) return 'top';
  const counter = direction !== 'clockwise';
  return (k === 1) === counter ? 'right' : 'left';
}

export const teamOf = (seat) => seat & 1;
export const partnerOf = (seat) => (seat + 2) & 3;

/** The seat drawn at the bottom: your own; for a spectator the host's, else seat 0. */
export function bottomSeat(table) {
  const you = table.you || {};
  if (you.seat !== null && you.seat !== undefined) return you.seat;
  const host = table.seats.find((s) => s.user_id && s.user_id === table.host_id);
  return host ? host.seat : 0;
}
