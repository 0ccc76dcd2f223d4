/**
 * Numbers as the JSON text spells them. JSON.parse rounds a number to the nearest double before any
 * rule sees it (`24.999999999999999` arrives as 25), so a rule about how a number is written — a bid
 * amount's at most 2 decimals — reads the token instead (Node 20's JSON.parse cannot hand it over).
 */

/** A JSON number token: sign, integer part, fraction, exponent. */
const NUMBER_TOKEN = /-?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

/**
 * The decimal places of the exact value a JSON number token denotes, trailing zeros not counted:
 * `25`, `25.000`, `2.5e1` and `2500e-2` have 0, `25.10` has 1, `24.999999999999999` has 15; null
 * when `token` is not a JSON number.
 */
export function decimalPlaces(token: string): number | null {
  NUMBER_TOKEN.lastIndex = 0;
  const m = NUMBER_TOKEN.exec(token);
  if (!m || m[0].length !== token.length) return null;
  // value = digits × 10^-(fraction length - exponent); trailing zeros of the digits lower that scale.
  const digits = `${m[1]}${m[2] ?? ''}`;
  const significant = digits.replace(/0+$/, '');
  if (/^0*$/.test(significant)) return 0;
  const scale = (m[2] ?? '').length - Number(m[3] ?? '0') - (digits.length - significant.length);
  return Math.max(0, scale);
}

/**
 * `text` (already known to be valid JSON) parsed as JSON.parse parses it, except that every number is
 * the string of its token. Objects have no prototype, so a key `__proto__` is a key like any other.
 * Iterative, so a body nested as deep as JSON.parse accepts cannot overflow the stack.
 */
export function numberTexts(text: string): unknown {
  type Frame = { container: unknown[] | Record<string, unknown>; key: string | null; expectKey: boolean };
  const stack: Frame[] = [];
  let root: unknown;
  const attach = (value: unknown): void => {
    const top = stack[stack.length - 1];
    if (!top) root = value;
    else if (Array.isArray(top.container)) top.container.push(value);
    else top.container[top.key!] = value;
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === ':') i++;
    else if (ch === ',') {
      const top = stack[stack.length - 1]!;
      if (!Array.isArray(top.container)) top.expectKey = true;
      i++;
    } else if (ch === '{' || ch === '[') {
      stack.push({ container: ch === '[' ? [] : (Object.create(null) as Record<string, unknown>), key: null, expectKey: ch === '{' });
      i++;
    } else if (ch === '}' || ch === ']') {
      attach(stack.pop()!.container);
      i++;
    } else if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const s = JSON.parse(text.slice(i, end + 1)) as string;
      const top = stack[stack.length - 1];
      if (top?.expectKey) {
        top.key = s;
        top.expectKey = false;
      } else attach(s);
      i = end + 1;
    } else if (ch === 't' || ch === 'f' || ch === 'n') {
      const word = ch === 't' ? 'true' : ch === 'f' ? 'false' : 'null';
      attach(ch === 't' ? true : ch === 'f' ? false : null);
      i += word.length;
    } else {
      NUMBER_TOKEN.lastIndex = i;
      const m = NUMBER_TOKEN.exec(text);
      if (!m) throw new Error(`numberTexts: not JSON at ${i}`);
      attach(m[0]);
      i += m[0].length;
    }
  }
  return root;
}
