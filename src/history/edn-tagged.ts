/**
 * A tagged literal as a history value, as Clojure's reader gives it to `=`.
 *
 * The two tags EDN defines read as the values Clojure's default readers make,
 * so that equal values are equal however they are spelled: `#inst` as the
 * java.util.Date clojure.instant builds (the instant to the millisecond,
 * sub-millisecond digits dropped, the offset applied, fields elided at the
 * end defaulting: `#inst "2020-01-01T01:00+01:00"` equals
 * `#inst "2020-01-01T00:00:00.000Z"`), spelled in UTC; `#uuid` as its 128
 * bits, in lower case. Any other tag (`#jepsen.history.Op{...}`, `#my/tag v`)
 * reads as Clojure's tagged-literal does: equal to another exactly when the
 * tag and the value are, and never to the untagged value.
 *
 * Refused: an `#inst` or `#uuid` whose form is not a string in their syntax
 * (Clojure's reader throws), an `#inst` out of its ranges (month 13, Feb 30,
 * second 60 but at minute 59), and an `#inst` before 1583: Clojure reads those
 * on the Julian calendar, where the ten days of 1582's switch name instants
 * twice; a `#uuid` other than 8-4-4-4-12 hex digits (Java reads `1-1-1-1-1`
 * as a padded one; refused rather than guessed).
 */
import type { Value } from '../../core/history/op.js';
import { ednTaggedValue } from '../../core/history/edn-value.js';

const TIMESTAMP = /^(\d\d\d\d)(?:-(\d\d)(?:-(\d\d)(?:T(\d\d)(?::(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?)?)?)?(?:Z|([-+])(\d\d):(\d\d))?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The value of `#tag form`; undefined when refused (ednTaggedProblem says why). */
export function ednTagged(tag: string, form: Value): Value | undefined {
  if (tag === 'inst') return typeof form === 'string' ? instant(form) : undefined;
  if (tag === 'uuid') return typeof form === 'string' && UUID.test(form) ? ednTaggedValue('uuid', form.toLowerCase()) : undefined;
  return ednTaggedValue(tag, form);
}

/** Why ednTagged refused `#tag form`, phrased as what was expected. */
export function ednTaggedProblem(tag: string): string {
  return tag === 'inst'
    ? 'an #inst string such as "2020-01-01T00:00:00.000Z": a valid date and time from 1583 on (Clojure reads earlier ones on the Julian calendar)'
    : 'a #uuid string of 8-4-4-4-12 hex digits';
}

// clojure.instant's parse-timestamp, validated, then its construct-date: the instant to the millisecond.
function instant(text: string): Value | undefined {
  const m = TIMESTAMP.exec(text);
  if (m === null) return undefined;
  const n = (i: number, fallback: number): number => (m[i] === undefined ? fallback : Number(m[i]));
  const [year, month, day, hour, minute, second] = [n(1, 0), n(2, 1), n(3, 1), n(4, 0), n(5, 0), n(6, 0)];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const ok =
    year >= 1583 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= DAYS[month - 1]! + (month === 2 && leap ? 1 : 0) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= (minute === 59 ? 60 : 59) &&
    n(9, 0) <= 23 &&
    n(10, 0) <= 59;
  if (!ok) return undefined;
  // The fraction zero-filled (or cut) to nanoseconds, then truncated to milliseconds, as construct-calendar does.
  const millis = Math.floor(Number(((m[7] ?? '') + '000000000').slice(0, 9)) / 1e6);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // A second of 60 runs over into the next minute, as the lenient GregorianCalendar Clojure builds does.
  date.setUTCHours(hour, minute, second, millis);
  const offsetMinutes = (m[8] === '-' ? -1 : 1) * (n(9, 0) * 60 + n(10, 0));
  return ednTaggedValue('inst', new Date(date.getTime() - offsetMinutes * 60_000).toISOString());
}
