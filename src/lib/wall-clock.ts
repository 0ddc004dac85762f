/**
 * Instants on an organization's wall clock, for people (pages, the portal's invitation page):
 * shared by the dashboard's `when()` and the pages that live in a domain.
 */

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (building one costs far more than using it). */
export function clockFormat(zone: string): Intl.DateTimeFormat {
  let format = clockFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clockFormats.set(zone, format);
  }
  return format;
}

/** `2026-11-25T10:04Z` in Europe/Berlin -> `2026-11-25 11:04 (Europe/Berlin)`; in UTC -> `... UTC`. */
export function onWallClock(instant: Date, zone = 'UTC'): string {
  const parts: Record<string, string> = {};
  for (const part of clockFormat(zone).formatToParts(instant)) parts[part.type] = part.value;
  const clock = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  return zone === 'UTC' ? `${clock} UTC` : `${clock} (${zone})`;
}
