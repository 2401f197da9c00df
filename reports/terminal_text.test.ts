/**
 * Goal: pin that no user string can forge a line or send a control sequence to a terminal:
 * `printable` escapes every control character of a field, `terminalSafe` keeps only newlines and
 * (with colour) the colour sequences. (Names with control characters are refused at load:
 * scenarios/loader_limits.test.ts; the CLI's last pass: test/cli/hardening.test.ts.) Method:
 * fixed strings.
 */
import { describe, expect, it } from 'vitest';
import { printable, terminalSafe } from './terminal_text';

const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);

describe('printable', () => {
  it('escapes newlines, ESC, BEL, NUL, C1 controls and bidi overrides', () => {
    expect(printable('x\noutcome PASS')).toBe('x\\noutcome PASS');
    expect(printable(`${ESC}[31mred${ESC}]0;title${BEL}`)).toBe(
      '\\u001b[31mred\\u001b]0;title\\u0007',
    );
    expect(printable('a\u0000b\u009bc\u202ed\re')).toBe('a\\u0000b\\u009bc\\u202ed\\re');
    expect(printable('zombie-fencing (scenarios/a.yaml)')).toBe(
      'zombie-fencing (scenarios/a.yaml)',
    );
  });
});

describe('terminalSafe', () => {
  it('keeps newlines, and colour sequences only with colour on', () => {
    const text = `${ESC}[1mbold${ESC}[22m\n${ESC}]0;pwned${BEL}\r`;
    expect(terminalSafe(text, { colour: true })).toBe(
      `${ESC}[1mbold${ESC}[22m\n\\u001b]0;pwned\\u0007\\r`,
    );
    expect(terminalSafe(text, { colour: false })).toBe(
      '\\u001b[1mbold\\u001b[22m\n\\u001b]0;pwned\\u0007\\r',
    );
  });
});
