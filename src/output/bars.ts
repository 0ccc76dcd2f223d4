/**
 * Horizontal bar charts for a terminal: one line per label, the bar's length in proportion to the
 * largest value, eighth-block characters for the fractional end, the figures after the bar.
 */
import { wrapText } from './table.js';

/** One bar: its label, the value its length shows, and the text printed after it. */
export interface Bar {
  label: string;
  value: number;
  text: string;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** The narrowest bar worth drawing: below it the figures are shown without bars. */
const MIN_BAR = 10;

/**
 * The lines of a bar chart `width` columns wide (labels and figures included); `paint` colours the bars.
 * Too narrow for a bar beside the figures, it shows the figures alone, under their label when they do not
 * fit beside it: no line is wider than `width` and no figure is cut.
 */
export function barLines(bars: readonly Bar[], width: number, paint: (s: string) => string = (s) => s): string[] {
  const label = Math.max(0, ...bars.map((b) => b.label.length));
  const text = Math.max(0, ...bars.map((b) => b.text.length));
  if (label + text + 4 + MIN_BAR > width) {
    if (label + 2 + text <= width) return bars.map((b) => `${b.label.padEnd(label)}  ${b.text}`.trimEnd());
    return bars.flatMap((b) => [b.label, ...wrapText(b.text, Math.max(1, width - 2)).map((l) => `  ${l}`)]);
  }
  const room = width - label - text - 4;
  const max = Math.max(0, ...bars.map((b) => b.value));
  return bars.map((b) => {
    const eighths = max > 0 && b.value > 0 ? Math.max(1, Math.round((b.value / max) * room * 8)) : 0;
    const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
    return `${b.label.padEnd(label)}  ${paint(bar)}${' '.repeat(room - Math.ceil(eighths / 8))}  ${b.text}`.trimEnd();
  });
}
