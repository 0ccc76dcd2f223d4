/**
 * The `Date` header of the mock's answers: its virtual clock's instant as HTTP writes it (seconds, GMT).
 * The text changes only when the clock passes into another second, so it is formatted once per virtual
 * second and kept (formatting it for every answer was ~2% of a listings page's CPU under load).
 */
export class DateStamp {
  private second = Number.NaN;
  private text = '';

  /** The HTTP date of the virtual instant `ms`: the kept text while `ms` is in the second last formatted. */
  at(ms: number): string {
    const second = Math.floor(ms / 1000);
    // NaN (an invalid clock) never equals itself, so it is formatted each time, as before: 'Invalid Date'.
    if (second !== this.second) {
      this.second = second;
      this.text = new Date(ms).toUTCString();
    }
    return this.text;
  }
}
