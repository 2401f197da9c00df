/**
 * Text made safe for a terminal. A user string (a scenario name, a file path, a name read back
 * from a history file) printed raw could forge a line (`\n` then `outcome PASS`), move the
 * cursor or overwrite a line (`\r`, CSI sequences), set the window title (OSC `ESC ] 0 ;`) or
 * reorder what is shown (Unicode bidirectional overrides). {@link printable} escapes every such
 * character in one field; {@link terminalSafe} is the last pass over whole output, which keeps
 * the newlines and the colour sequences the renderers add themselves and escapes the rest.
 */

/** C0 and C1 controls, DEL, the Unicode line and paragraph separators and the bidi controls. */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** The same, with the colour sequences (SGR, `ESC [ … m`) the palette writes matched first. */
// eslint-disable-next-line no-control-regex -- matching ESC is the point
const UNSAFE_OR_COLOUR = /\u001b\[[0-9;]*m|[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** A character's visible escape: `\n`, `\t`, `\r` or `\u001b`. */
function escapeOf(character: string): string {
  if (character === '\n') return '\\n';
  if (character === '\t') return '\\t';
  if (character === '\r') return '\\r';
  return `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/**
 * One field with every control character escaped, newlines and tabs included, so it stays on
 * its line and cannot style or move anything.
 * @example printable('x\noutcome PASS') // 'x\\noutcome PASS'
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

/**
 * Whole output for a terminal: newlines stay, and so do colour sequences when `colour` is on;
 * every other control character (ESC of any other sequence, `\r`, BEL, C1 controls) is escaped.
 * @example terminalSafe('a\u001b]0;t\u0007\n', { colour: false }) // 'a\\u001b]0;t\\u0007\n'
 */
export function terminalSafe(text: string, options: { readonly colour: boolean }): string {
  return text.replace(UNSAFE_OR_COLOUR, (match) => {
    if (match === '\n') return match;
    if (match.length > 1) return options.colour ? match : match.replace(UNSAFE, escapeOf);
    return escapeOf(match);
  });
}
