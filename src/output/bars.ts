/**
 * Horizontal bar charts for a terminal: one line per label, the bar's length in proportion to the
 * largest value, eighth-block characters for the fractional end, the figures after the bar.
 */

/** One bar: its label, the value its length shows, and the text printed after it. */
export interface Bar {
  label: string;
  value: number;
  text: string;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** The lines of a bar chart `width` columns wide (labels and figures included); `paint` colours the bars. */
export function barLines(bars: readonly Bar[], width: number, paint: (s: string) => string = (s) => s): string[] {
  const label = Math.max(0, ...bars.map((b) => b.label.length));
  const text = Math.max(0, ...bars.map((b) => b.text.length));
  const room = Math.max(10, width - label - text - 4);
  const max = Math.max(0, ...bars.map((b) => b.value));
  return bars.map((b) => {
    const eighths = max > 0 && b.value > 0 ? Math.max(1, Math.round((b.value / max) * room * 8)) : 0;
    const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
    return `${b.label.padEnd(label)}  ${paint(bar)}${' '.repeat(room - Math.ceil(eighths / 8))}  ${b.text}`.trimEnd();
  });
}
