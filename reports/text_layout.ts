/**
 * Plain-text layout shared by the console renderers: aligned tables, word wrapping and the
 * formatting of virtual time. Everything here is pure and colour-free, so column widths are
 * computed on the visible text; colour is applied by the caller to whole cells or lines.
 */

/** A table to lay out: a header row and body rows of the same width. */
export interface TextTable {
  readonly header: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
  /** Per column: right-align (numbers) or left-align (names). @default all left */
  readonly alignRight?: readonly boolean[];
  /** Between two columns. @default ' | ' */
  readonly separator?: string;
}

/**
 * Lays out `table` with every column as wide as its widest cell; trailing spaces are trimmed.
 * @example
 * renderTable({
 *   header: ['partition', 'HW'],
 *   rows: [['orders-0', '83']],
 *   alignRight: [false, true],
 * })
 * // ['partition | HW', 'orders-0  | 83']
 */
export function renderTable(table: TextTable): string[] {
  const separator = table.separator ?? ' | ';
  const widths = table.header.map((cell, column) =>
    Math.max(cell.length, ...table.rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]): string =>
    widths
      .map((width, column) => {
        const cell = row[column] ?? '';
        return table.alignRight?.[column] === true ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(separator)
      .trimEnd();
  return [line(table.header), ...table.rows.map(line)];
}

/**
 * Splits `text` into lines of at most `width` columns at spaces, each prefixed by `indent`.
 * A single word longer than the width stays whole on its own line.
 * @example wrapText('a b c', { width: 3, indent: '' }) // ['a b', 'c']
 */
export function wrapText(text: string, options: { width: number; indent: string }): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ').filter((part) => part !== '')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (current !== '' && options.indent.length + candidate.length > options.width) {
      lines.push(options.indent + current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current !== '') lines.push(options.indent + current);
  return lines;
}

/**
 * Virtual time in seconds, exact (integer arithmetic), without trailing zeros.
 * @example formatSeconds(40_012_157) // '40.012157 s'
 * @example formatSeconds(1_500_000) // '1.5 s'
 */
export function formatSeconds(timeUs: number): string {
  const whole = Math.floor(timeUs / 1_000_000);
  const fraction = String(timeUs - whole * 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction === '' ? `${whole} s` : `${whole}.${fraction} s`;
}

/**
 * A whole percentage, rounded down, of `part` in `total`; 0 when `total` is 0.
 * @example percentFloor(19, 20) // 95
 */
export function percentFloor(part: number, total: number): number {
  return total === 0 ? 0 : Math.floor((part * 100) / total);
}

/**
 * `count noun`, in the plural form unless the count is 1.
 * @example plural(2, 'seed') // '2 seeds'
 * @example plural(3, 'anomaly', 'anomalies') // '3 anomalies'
 */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/**
 * An integer with its digits grouped by thousands, as the seed texts and Kafka's docs write
 * offsets; independent of the locale.
 * @example groupDigits(900001) // '900,001'
 * @example groupDigits(-20000) // '-20,000'
 */
export function groupDigits(value: number): string {
  const digits = String(Math.abs(Math.trunc(value)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}
