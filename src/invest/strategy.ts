/**
 * The strategy file of `mkt invest`: ordered rules (listing filters and an amount) and run-wide
 * caps. parseStrategy collects every problem with its line instead of stopping at the first.
 */
import {
  checkBoolean,
  checkFilterValue,
  checkSortBy,
  filterParamNames,
  MIN_BID,
  PLATFORM_RATINGS,
  RATING_ALIASES,
  resolveFilterParam,
  suggest,
  type PlatformRating,
} from './marketplace-rules.js';
import { readSourceTree, type SourceNode } from './source-tree.js';

/** One rule: the listings it wants and what it bids on each. Amounts are dollars with at most 2 decimals. */
export interface Rule {
  name: string;
  /** Listings query parameters in their query text form (`fico_score: "760-779,780-799"`). */
  filters: Record<string, string>;
  sort_by?: string;
  amount?: number;
  amount_by_rating?: Partial<Record<PlatformRating, number>>;
  max_listings?: number;
}

/** A checked strategy. Every cap is optional; an absent cap does not limit. */
export interface Strategy {
  rules: Rule[];
  reserve?: number;
  max_per_run?: number;
  max_per_day?: number;
  max_bids_per_run?: number;
  rating_share?: Partial<Record<PlatformRating, number>>;
}

/** What is wrong, where: printed as `FILE:LINE: key: message`. */
export interface Problem {
  line: number;
  /** The path of the key (`rules[1].filters.fico_score`), empty for a syntax error. */
  key: string;
  message: string;
}

/** One problem as a line for stderr. */
export function formatProblem(fileName: string, p: Problem): string {
  return `${fileName}:${p.line}: ${p.key ? `${p.key}: ` : ''}${p.message}`;
}

const TOP_KEYS = ['rules', 'reserve', 'max_per_run', 'max_per_day', 'max_bids_per_run', 'rating_share'] as const;
const RULE_KEYS = ['name', 'filters', 'sort_by', 'amount', 'amount_by_rating', 'max_listings'] as const;
/** Query parameters that are not catalogue filters but may narrow a rule. */
const EXTRA_FILTERS = ['exclude_co_borrower_application'];
/** Query parameters the run sets itself, with why a rule may not. */
const RESERVED_PARAMS: Record<string, string> = {
  biddable: 'set by mkt invest (biddable=true): only active listings can take bids',
  invested: 'set by mkt invest (invested=false): a listing already held is never bid on again',
  whole_loan: 'whole-loan listings are not supported by mkt invest: a whole-loan bid must be the whole listing amount',
  sort_by: 'sort_by belongs to the rule, beside filters, not inside it',
  limit: 'paging is done by mkt invest',
  offset: 'paging is done by mkt invest',
  include_credit_bureau_values: 'mkt invest does not need the bureau objects',
};

/** Parses and checks a strategy file's text; `zone` reads date filters as `mkt listings search` does. */
export function parseStrategy(text: string, fileName: string, zone?: string): { strategy: Strategy } | { problems: Problem[] } {
  const tree = readSourceTree(text, fileName);
  if ('problems' in tree) return { problems: tree.problems.map((p) => ({ line: p.line, key: '', message: p.message })) };
  const problems: Problem[] = [];
  const report = (line: number, key: string, message: string): void => void problems.push({ line, key, message });
  const root = tree.root;
  if (root === null) return { problems: [{ line: 1, key: '', message: 'the file is empty: a strategy needs a rules list' }] };
  if (root.kind !== 'map')
    return { problems: [{ line: root.line, key: '', message: 'a strategy is a map of keys (rules, reserve, max_per_run, …)' }] };

  const strategy: Strategy = { rules: [] };
  const top = entries(root, '', TOP_KEYS, report);
  const rulesNode = top.get('rules');
  if (!rulesNode) report(root.line, 'rules', 'missing: a strategy needs at least one rule');
  else if (rulesNode.kind !== 'list') report(rulesNode.line, 'rules', 'must be a list of rules');
  else if (rulesNode.items.length === 0) report(rulesNode.line, 'rules', 'is empty: a strategy needs at least one rule');
  else {
    const seen = new Map<string, number>();
    rulesNode.items.forEach((node, i) => {
      const rule = readRule(node, `rules[${i}]`, zone, report);
      if (!rule) return;
      const first = seen.get(rule.name);
      if (first !== undefined)
        report(node.line, `rules[${i}].name`, `'${rule.name}' is already the name of rules[${first}]; names must be unique`);
      else seen.set(rule.name, i);
      strategy.rules.push(rule);
    });
  }
  for (const key of ['reserve', 'max_per_run', 'max_per_day'] as const) {
    const node = top.get(key);
    if (node) strategy[key] = money(node, key, 0, report);
  }
  const bids = top.get('max_bids_per_run');
  if (bids) strategy.max_bids_per_run = count(bids, 'max_bids_per_run', report);
  const shares = top.get('rating_share');
  if (shares) strategy.rating_share = readByRating(shares, 'rating_share', report, (n, k) => share(n, k, report));
  // By line, so the list reads down the file (sort is stable: same-line problems keep their order).
  return problems.length > 0 ? { problems: problems.sort((a, b) => a.line - b.line) } : { strategy };
}

type Report = (line: number, key: string, message: string) => void;

/** A listings filter's name near `key` (`fico` → fico_score), for a filter written outside a rule's filters. */
function filterNear(key: string): string | undefined {
  return resolveFilterParam(key) ? key : suggest(key, [...filterParamNames(), ...EXTRA_FILTERS]);
}

/**
 * The entries of a map, each known key once; an unknown key is reported with the nearest known one,
 * or, when it reads as a listings filter, with where filters go.
 */
function entries(node: SourceNode & { kind: 'map' }, at: string, known: readonly string[], report: Report): Map<string, SourceNode> {
  const out = new Map<string, SourceNode>();
  for (const e of node.entries) {
    const path = at ? `${at}.${e.key}` : e.key;
    if (!known.includes(e.key)) {
      const near = suggest(e.key, known);
      const filter = near === undefined ? filterNear(e.key) : undefined;
      const advice = near ? `; did you mean ${near}?` : filter ? `; ${filter} is a listings filter: put it under a rule's filters` : '';
      report(e.line, path, `unknown key${advice} (known: ${known.join(', ')})`);
      continue;
    }
    out.set(e.key, e.value);
  }
  return out;
}

function readRule(node: SourceNode, at: string, zone: string | undefined, report: Report): Rule | null {
  if (node.kind !== 'map') {
    report(node.line, at, 'a rule is a map with name, filters and amount (or amount_by_rating)');
    return null;
  }
  const keys = entries(node, at, RULE_KEYS, report);
  const nameNode = keys.get('name');
  let name = `#${at}`;
  if (!nameNode) report(node.line, `${at}.name`, 'missing: every rule needs a name');
  else if (nameNode.kind !== 'scalar' || typeof nameNode.value !== 'string' || nameNode.value.trim() === '') {
    report(nameNode.line, `${at}.name`, 'must be a non-empty text');
  } else name = nameNode.value.trim();

  const rule: Rule = { name, filters: {} };
  const filters = keys.get('filters');
  if (filters) rule.filters = readFilters(filters, `${at}.filters`, zone, report);
  const sortBy = keys.get('sort_by');
  if (sortBy) {
    if (sortBy.kind !== 'scalar' || typeof sortBy.value !== 'string')
      report(sortBy.line, `${at}.sort_by`, "must be a text such as 'lender_yield desc'");
    else {
      const problem = checkSortBy(sortBy.value);
      if (problem) report(sortBy.line, `${at}.sort_by`, problem);
      else rule.sort_by = sortBy.value;
    }
  }
  const amount = keys.get('amount');
  const byRating = keys.get('amount_by_rating');
  if (amount && byRating) report(byRating.line, `${at}.amount_by_rating`, 'give amount or amount_by_rating, not both');
  else if (!amount && !byRating) report(node.line, `${at}.amount`, 'missing: give amount (per listing) or amount_by_rating');
  if (amount) rule.amount = money(amount, `${at}.amount`, MIN_BID, report);
  if (byRating) rule.amount_by_rating = readByRating(byRating, `${at}.amount_by_rating`, report, (n, k) => money(n, k, MIN_BID, report));
  const max = keys.get('max_listings');
  if (max) rule.max_listings = count(max, `${at}.max_listings`, report);
  return rule;
}

/** Filters in the query text form `mkt listings search` takes, each checked by the same contract functions. */
function readFilters(node: SourceNode, at: string, zone: string | undefined, report: Report): Record<string, string> {
  const out: Record<string, string> = {};
  if (node.kind !== 'map') {
    report(node.line, at, 'must be a map of listings query parameters (see mkt listings fields)');
    return out;
  }
  const names = [...filterParamNames(), ...EXTRA_FILTERS];
  for (const e of node.entries) {
    const path = `${at}.${e.key}`;
    const reserved = RESERVED_PARAMS[e.key];
    if (reserved) {
      report(e.line, path, reserved);
      continue;
    }
    const param = EXTRA_FILTERS.includes(e.key) ? 'extra' : resolveFilterParam(e.key);
    if (!param) {
      const near = suggest(e.key, names);
      report(e.line, path, `not a listings filter${near ? `; did you mean ${near}?` : ''} (run mkt listings fields for the names)`);
      continue;
    }
    const text = filterText(e.value, param !== 'extra' && param.kind === 'multivalue');
    if (typeof text !== 'string') {
      report(e.value.line, path, text.problem);
      continue;
    }
    const isBoolean = param === 'extra' || param.kind === 'boolean';
    const problem = param === 'extra' ? checkBoolean(text) : checkFilterValue(e.key, text, zone);
    if (problem) report(e.value.line, path, problem);
    else out[e.key] = isBoolean ? text.trim().toLowerCase() : text;
  }
  return out;
}

/** A filter value as query text: a list becomes a comma list (multivalue only), numbers and booleans their text. */
function filterText(node: SourceNode, multi: boolean): string | { problem: string } {
  const scalarText = (n: SourceNode): string | null =>
    n.kind === 'scalar'
    && (typeof n.value === 'string' || typeof n.value === 'boolean' || (typeof n.value === 'number' && Number.isFinite(n.value)))
      ? String(n.value)
      : null;
  if (node.kind === 'list') {
    if (!multi) return { problem: 'takes one value, not a list' };
    const parts = node.items.map(scalarText);
    if (parts.some((p) => p === null)) return { problem: 'every value in the list must be a text or a number' };
    return parts.join(',');
  }
  const text = scalarText(node);
  return text ?? { problem: multi ? 'must be a value or a list of values' : 'must be a value (a number, a date text or true/false)' };
}

/** A money amount: a number of at least `min` with at most 2 decimals. */
function money(node: SourceNode, key: string, min: number, report: Report): number | undefined {
  const v = node.kind === 'scalar' ? node.value : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    report(node.line, key, `must be a number (dollars), got ${describe(node)}`);
    return undefined;
  }
  if (Math.round(v * 100) / 100 !== v) {
    report(node.line, key, `${v} has more than 2 decimals`);
    return undefined;
  }
  if (v < min) {
    const below = min > 0 ? `${v} is below the ${min.toFixed(2)} minimum bid` : `${v} is negative`;
    report(node.line, key, v < 0 && min > 0 ? `${v} is negative: amounts are positive, at least the ${min.toFixed(2)} minimum bid` : below);
    return undefined;
  }
  if (v > 1e12) {
    report(node.line, key, `${v} is not a plausible amount`);
    return undefined;
  }
  return v;
}

/** A whole count of 0 or more. */
function count(node: SourceNode, key: string, report: Report): number | undefined {
  const v = node.kind === 'scalar' ? node.value : undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    report(node.line, key, `must be a whole number (0 or more), got ${describe(node)}`);
    return undefined;
  }
  return v;
}

/** A share in [0, 1]; 0 says "no new principal in this rating". */
function share(node: SourceNode, key: string, report: Report): number | undefined {
  const v = node.kind === 'scalar' ? node.value : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    report(node.line, key, `must be a share from 0 to 1 (0.05 is 5%; 0: no new money in this rating), got ${describe(node)}`);
    return undefined;
  }
  return v;
}

const RATING_NAMES = `${PLATFORM_RATINGS.join(', ')} (or NA)`;

/** A map keyed by platform rating (`NA` read as `N/A`); each value read by `read`. */
function readByRating(
  node: SourceNode,
  at: string,
  report: Report,
  read: (n: SourceNode, key: string) => number | undefined,
): Partial<Record<PlatformRating, number>> {
  const out: Partial<Record<PlatformRating, number>> = {};
  if (node.kind !== 'map' || node.entries.length === 0) {
    report(node.line, at, `must be a map of ratings (${RATING_NAMES}) with at least one entry`);
    return out;
  }
  for (const e of node.entries) {
    // NA, as the account's by-rating maps spell it, is the old loans' N/A.
    const rating = RATING_ALIASES[e.key] ?? PLATFORM_RATINGS.find((r) => r === e.key);
    if (!rating) {
      report(e.line, `${at}.${e.key}`, `unknown rating; expected one of ${RATING_NAMES}`);
      continue;
    }
    const v = read(e.value, `${at}.${e.key}`);
    if (v !== undefined) out[rating] = v;
  }
  return out;
}

function describe(node: SourceNode): string {
  if (node.kind === 'map') return 'a map';
  if (node.kind === 'list') return 'a list';
  return node.value === null ? 'nothing' : (JSON.stringify(node.value) ?? String(node.value));
}
