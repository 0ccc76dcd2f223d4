/**
 * Reads a strategy file's text (strict JSON, or YAML for the commented format) into a tree whose
 * every node knows its line, so each problem can name the line it is on.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** A value of the file with the line it starts on. */
export type SourceNode =
  | { kind: 'map'; line: number; entries: { key: string; line: number; value: SourceNode }[] }
  | { kind: 'list'; line: number; items: SourceNode[] }
  | { kind: 'scalar'; line: number; value: unknown };

/** A syntax problem: its line and what is wrong. */
export interface SyntaxProblem {
  line: number;
  message: string;
}

/** True when the file name says JSON; anything else is read as YAML. */
export function isJsonName(fileName: string): boolean {
  return /\.json$/i.test(fileName);
}

/** Parses `text`; JSON files must be strict JSON (JSON.parse accepts them) before YAML reads their positions. */
export function readSourceTree(text: string, fileName: string): { root: SourceNode | null } | { problems: SyntaxProblem[] } {
  if (isJsonName(fileName)) {
    try {
      JSON.parse(text);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { problems: [{ line: lineOfJsonError(text, message), message: `not valid JSON: ${message}` }] };
    }
  }
  const lines = new LineCounter();
  // uniqueKeys: a key given twice is a problem, not a silent last-one-wins (JSON.parse would keep the last).
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number): number => lines.linePos(offset).line;
  if (doc.errors.length > 0) {
    return { problems: doc.errors.map((e) => ({ line: lineAt(e.pos[0]), message: e.message })) };
  }
  const problems: SyntaxProblem[] = [];
  const convert = (node: Node | null | undefined, fallback: number): SourceNode => {
    if (node === null || node === undefined) return { kind: 'scalar', line: fallback, value: null };
    const line = node.range ? lineAt(node.range[0]) : fallback;
    if (isAlias(node)) {
      // Aliases could repeat a subtree without bound and would hide which line a value comes from.
      problems.push({ line, message: `aliases (*${node.source}) are not supported; write the value out` });
      return { kind: 'scalar', line, value: null };
    }
    if (isMap(node)) {
      const entries = node.items.map((pair) => {
        const key = pair.key as Node | null;
        const keyLine = key?.range ? lineAt(key.range[0]) : line;
        const keyText = isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number') ? String(key.value) : null;
        if (keyText === null) problems.push({ line: keyLine, message: 'every key must be plain text' });
        return { key: keyText ?? '', line: keyLine, value: convert(pair.value as Node | null, keyLine) };
      });
      return { kind: 'map', line, entries };
    }
    if (isSeq(node)) return { kind: 'list', line, items: node.items.map((item) => convert(item as Node | null, line)) };
    if (isScalar(node)) return { kind: 'scalar', line, value: node.value };
    return { kind: 'scalar', line, value: null };
  };
  const root = doc.contents === null ? null : convert(doc.contents as Node, 1);
  return problems.length > 0 ? { problems } : { root };
}

/** The line a JSON.parse message points at (Node names a character position), or 1. */
function lineOfJsonError(text: string, message: string): number {
  const m = /position (\d+)/.exec(message);
  if (!m) return /end of JSON/i.test(message) ? text.split('\n').length : 1;
  const at = Math.min(Number(m[1]), text.length);
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
