/** A pickup can only be asked for on a day the carrier picks up: today or later, a business day. */
import { holidayName } from '../../core';
import { formatUsDate } from '../data/format';

const DAY = 86_400_000;

export function checkPickupDay(label: string, day: Date, now: Date, messages: string[]): void {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (day.getTime() < today) {
    messages.push(`${label} ${formatUsDate(day)} is in the past: a pickup can be requested for today (${formatUsDate(new Date(today))}) or later.`);
    return;
  }
  if (day.getTime() > today + 60 * DAY) {
    messages.push(`${label} ${formatUsDate(day)} is too far ahead: pickups can be requested up to 60 days in advance.`);
    return;
  }
  const dow = day.getUTCDay();
  if (dow === 0 || dow === 6) messages.push(`${label} ${formatUsDate(day)} is a ${dow === 0 ? 'Sunday' : 'Saturday'}: no pickups on weekends.`);
  else {
    const holiday = holidayName(day);
    if (holiday) messages.push(`${label} ${formatUsDate(day)} is a carrier holiday (${holiday}): no pickups that day.`);
  }
}
