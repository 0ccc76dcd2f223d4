/** Durations as users type them: `90m`, `1h`, `24h`, `15d`, `30s`, or ISO 8601 (`PT1H`, `P1DT2H`). */

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds in `text`, or null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  const simple = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(t);
  if (simple) return Math.round(Number(simple[1]) * UNIT_MS[simple[2]!.toLowerCase()]!);
  const iso = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(t);
  if (iso && t.length > 1 && !/T$/i.test(t)) {
    const [w, d, h, m, s] = iso.slice(1).map((v) => (v ? Number(v) : 0)) as [number, number, number, number, number];
    return Math.round(w * UNIT_MS.w! + d * UNIT_MS.d! + h * UNIT_MS.h! + m * UNIT_MS.m! + s * 1000);
  }
  return null;
}
