/**
 * The `--until` argument of `eos-sim run`: where a replay stops. A virtual time with its unit
 * (`3.4s`, `3400ms`, `3400000us`), an event index (`event:12345`: right after that event; events
 * are numbered from 1) or `first-anomaly`.
 */
import type { HaltLimit } from '../sim/kernel';
import { UsageError } from './errors';

/** A parsed `--until`. */
export type UntilArgument =
  | { readonly kind: 'limit'; readonly limit: HaltLimit; readonly text: string }
  | { readonly kind: 'first-anomaly' };

/** Decimal digits below the unit down to a microsecond. */
const FRACTION_DIGITS: Readonly<Record<string, number>> = { s: 6, ms: 3, us: 0 };

/**
 * Parses `--until`.
 * @throws UsageError naming the flag and the accepted forms.
 * @example parseUntil('3.4s').limit // { timeUs: 3400000 }
 */
export function parseUntil(text: string): UntilArgument {
  if (text === 'first-anomaly') return { kind: 'first-anomaly' };
  const event = /^event:([1-9][0-9]{0,14})$/.exec(text);
  if (event !== null) {
    return { kind: 'limit', limit: { eventIndex: Number(event[1]) }, text: `--until ${text}` };
  }
  const time = /^([0-9]{1,15})(?:\.([0-9]+))?(s|ms|us)$/.exec(text);
  if (time !== null) {
    const [, whole = '0', fraction = '', unit = 's'] = time;
    const digits = FRACTION_DIGITS[unit] ?? 0;
    const timeUs = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
    if (fraction.length <= digits && Number.isSafeInteger(timeUs)) {
      return { kind: 'limit', limit: { timeUs }, text: `--until ${text}` };
    }
  }
  throw new UsageError(
    `--until '${text.replace(/[^\x20-\x7e]/g, '?')}': expected a virtual time (3.4s, 3400ms, ` +
      '3400000us, at most microsecond precision), event:N (N ≥ 1) or first-anomaly',
  );
}
