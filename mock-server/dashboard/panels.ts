/**
 * What each panel of the dashboard shows, as plain nodes (an element's tag, class, title, and its text or
 * children: never markup), from what the admin routes answer. One function, used twice: the server renders
 * its nodes into the HTML it sends (page.ts: the first paint carries the state), and the page script builds
 * the same nodes with textContent as its reads come in. Like the script, it is served as its own source
 * text, so it refers to nothing outside its function but the language's globals (its imports are types;
 * test/dashboard-script.test.ts walks its names), and every constant comes in `args`.
 */
import type { Static } from '@sinclair/typebox';
import type { RequestLogEntry, OutboxMessage } from '../../src/contract/mock-inspect.js';
import type { WebhookPageSchema } from '../../src/contract/mock-webhooks.js';
import type { MockOrder } from '../../src/contract/openapi/admin-orders.js';
import type { SnapshotSchema } from '../../src/contract/openapi/admin-snapshots.js';
import type { ClockStateSchema, FaultsSchema, MockStateSchema } from '../../src/contract/openapi/admin.js';
import type { ListEnvelope } from '../../src/contract/resources.js';

/** What each admin route the page reads answers (GET `admin` + `/` + the key). */
export interface DashboardReads {
  clock: Static<typeof ClockStateSchema>;
  state: Static<typeof MockStateSchema>;
  orders: ListEnvelope<MockOrder>;
  faults: Static<typeof FaultsSchema>;
  requests: ListEnvelope<RequestLogEntry>;
  outbox: ListEnvelope<OutboxMessage>;
  webhooks: Static<typeof WebhookPageSchema>;
  snapshots: ListEnvelope<Static<typeof SnapshotSchema>>;
}

/** The constants the panels and the script need, passed in as JSON (they can see nothing else). */
export interface DashboardScriptArgs {
  /** Listing status names by code (src/contract/enums.ts LISTING_STATUSES). */
  statusNames: Readonly<Record<string, string>>;
  /** The newest entries each list panel shows: the `limit` of its read. */
  rows: { readonly requests: number; readonly orders: number; readonly outbox: number; readonly webhooks: number };
  /** The bids shown of each order (the rest are counted). */
  bidRows: number;
  /** The header that marks the page's reads (src/contract/mock-admin.ts DASHBOARD_HEADER), left out of the request log. */
  dashboardHeader: string;
}

/** An element of a panel, never markup: its text is set as text, its attributes are these few. */
export interface PanelNode {
  tag: 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td' | 'p' | 'span' | 'button';
  text?: string;
  cls?: string;
  /** The whole value where the element shows it cut. */
  title?: string;
  /** A cell: the rows and columns it spans. */
  rows?: number;
  cols?: number;
  /** A button: the snapshot it loads (data-snapshot). */
  snapshot?: string;
  disabled?: boolean;
  children?: PanelNode[];
}

/** What one element of the page (by id) shows: its text or its children, and its class when given. */
export interface PanelFill {
  id: string;
  text?: string;
  nodes?: PanelNode[];
  cls?: string;
}

/** The fills of each panel, from what its route answered. */
export type DashboardPanels = { readonly [K in keyof DashboardReads]: (data: DashboardReads[K]) => PanelFill[] };

/** A cell's value (shown as text), or a node. */
type Cell = string | number | boolean | null | undefined | PanelNode;
/** A table column: its heading, the cell of a row, and the cells' class. */
type Column<R> = readonly [heading: string, cell: (row: R) => Cell, cls?: string];

/** The panels over `args`; runs on the server (page.ts) and in the browser (page-script.ts). */
export function dashboardPanels(args: DashboardScriptArgs): DashboardPanels {
  'use strict';
  function node(tag: PanelNode['tag'], text?: Cell, cls?: string): PanelNode {
    if (text !== null && typeof text === 'object') return { tag, children: [text], ...(cls ? { cls } : {}) };
    const n: PanelNode = { tag };
    if (text !== undefined && text !== null) n.text = String(text);
    if (cls) n.cls = cls;
    return n;
  }
  /** `text` in a span that shows its start when the column is narrow, the whole of it as its title. */
  function cut(text: string, cls?: string): PanelNode {
    return { tag: 'span', text, title: text.length > 400 ? text.slice(0, 400) + '…' : text, cls: cls ? 'cut ' + cls : 'cut' };
  }
  function money(n: number): string {
    return typeof n === 'number' ? n.toFixed(2) : String(n);
  }
  function table<R>(columns: readonly Column<R>[], rows: readonly R[], empty: string): PanelNode[] {
    if (rows.length === 0) return [node('p', empty)];
    const head = node('tr');
    head.children = columns.map((c) => node('th', c[0], c[2]));
    const body = node('tbody');
    body.children = rows.map((r) => {
      const tr = node('tr');
      tr.children = columns.map((c) => node('td', c[1](r), c[2]));
      return tr;
    });
    const thead = node('thead');
    thead.children = [head];
    const t = node('table');
    t.children = [thead, body];
    return [t];
  }
  function clock(c: DashboardReads['clock']): PanelFill[] {
    return [
      { id: 'clock-now', text: c.now },
      { id: 'clock-state', text: c.frozen ? 'frozen' : 'running' },
      { id: 'clock-move', text: c.move ? 'moving to ' + c.move.to + ': day ' + c.move.days_done + ' of ' + c.move.days : '' },
    ];
  }
  function state(s: DashboardReads['state']): PanelFill[] {
    const facts: [string, number][] = [
      ['seed', s.seed],
      ['listings', s.listings],
      ['orders', s.orders],
      ['orders queued', s.orders_queued],
      ['loans', s.loans],
      ['notes', s.notes],
      ['outbox messages', s.outbox_messages],
    ];
    const statuses = Object.keys(s.listings_by_status).sort((a, b) => Number(a) - Number(b));
    return [
      { id: 'world-now', text: s.now },
      {
        id: 'world-facts',
        nodes: table(
          [
            ['', (f) => f[0]],
            ['', (f) => f[1], 'num'],
          ],
          facts,
          '',
        ),
      },
      {
        id: 'world-invariants',
        text: s.invariants.ok ? 'invariants hold' : 'invariants broken: ' + s.invariants.violations.join('; '),
        cls: s.invariants.ok ? '' : 'bad',
      },
      {
        id: 'listings-by-status',
        nodes: table(
          [
            ['status', (k) => k],
            ['name', (k) => args.statusNames[k] || ''],
            ['listings', (k) => s.listings_by_status[k], 'num'],
          ],
          statuses,
          'no listings',
        ),
      },
      {
        id: 'accounts',
        nodes: table(
          [
            ['account', (a) => a.account_id],
            ['user', (a) => a.user],
            ['cash', (a) => money(a.cash), 'num'],
            ['pending', (a) => money(a.pending), 'num'],
            ['invested', (a) => money(a.invested), 'num'],
            ['total', (a) => money(a.total), 'num'],
          ],
          s.accounts,
          'no accounts',
        ),
      },
    ];
  }
  /** One row per bid, the order's own cells spanning its bids; past `bidRows` bids, one row that counts the rest. */
  function orders(page: DashboardReads['orders']): PanelFill[] {
    const rows: PanelNode[] = [];
    page.result.forEach((o) => {
      const shown = o.bid_requests.slice(0, args.bidRows);
      const more = o.bid_requests.length - shown.length;
      const span = shown.length + (more > 0 ? 1 : 0);
      const orderCells: PanelNode[] = [
        { tag: 'td', rows: span, children: [cut(o.order_id, 'id')] },
        { tag: 'td', rows: span, text: o.account_id },
        { tag: 'td', rows: span, text: o.order_date, cls: 'soft' },
        { tag: 'td', rows: span, text: o.order_status, cls: o.order_status === 'COMPLETED' ? 'ok' : '' },
        {
          tag: 'td',
          rows: span,
          cls: 'num soft',
          text: money(o.order_amount) + ' / ' + money(o.order_amount_placed) + ' / ' + money(o.order_amount_invested),
        },
      ];
      shown.forEach((b, i) => {
        const tr = node('tr', undefined, i === 0 ? 'first' : '');
        tr.children = [
          ...(i === 0 ? orderCells : []),
          node('td', b.listing_id),
          node('td', money(b.bid_amount), 'num'),
          node('td', money(b.bid_amount_placed), 'num'),
          node('td', b.bid_status, b.bid_status === 'INVESTED' ? 'ok' : b.bid_status === 'EXPIRED' ? 'bad' : ''),
          node('td', b.bid_result),
        ];
        rows.push(tr);
      });
      if (more > 0) {
        const tr = node('tr');
        tr.children = [{ tag: 'td', cols: 5, text: 'and ' + more + ' more bids (GET /__mock/orders has them all)', cls: 'more' }];
        rows.push(tr);
      }
    });
    const heads = [
      'order',
      'account',
      'placed at',
      'status',
      'amount / placed / invested',
      'listing',
      'bid',
      'placed',
      'bid status',
      'result',
    ];
    const head = node('tr');
    head.children = heads.map((h, i) => node('th', h, i === 4 || i === 6 || i === 7 ? 'num' : ''));
    const thead = node('thead');
    thead.children = [head];
    const body = node('tbody');
    body.children = rows;
    const t = node('table', undefined, 'orders');
    t.children = [thead, body];
    return [
      { id: 'orders-count', text: page.total_count + ' in all' },
      { id: 'orders', nodes: page.result.length === 0 ? [node('p', 'no orders yet (POST /v1/orders/ places one)')] : [t] },
    ];
  }
  function faults(f: DashboardReads['faults']): PanelFill[] {
    const keys = Object.keys(f) as (keyof typeof f)[];
    const on =
      f.latency_ms > 0
      || f.handler_delay_ms > 0
      || f.error_rate > 0
      || f.rate_limit_rate > 0
      || f.drop_rate > 0
      || f.drop_response_rate > 0;
    return [
      {
        id: 'faults',
        nodes: table(
          [
            ['setting', (k) => k],
            ['value', (k) => (f[k] === null ? '(any)' : f[k]), 'wrap'],
          ],
          keys,
          'none',
        ),
      },
      { id: 'faults-on', text: on ? 'faults are injected' : 'no faults', cls: on ? 'bad' : '' },
    ];
  }
  function requests(page: DashboardReads['requests']): PanelFill[] {
    return [
      { id: 'request-log-count', text: page.total_count + ' kept' },
      {
        id: 'request-log',
        nodes: table(
          [
            ['id', (e) => e.id, 'num'],
            ['virtual time', (e) => e.virtual_at],
            ['method', (e) => e.method],
            ['path', (e) => cut(e.path + (e.query ? '?' + e.query : ''), 'path')],
            ['status', (e) => (e.status === null ? 'dropped' : e.status), 'num'],
            ['ms', (e) => e.duration_ms, 'num ms'],
            ['account', (e) => e.account || ''],
            ['fault', (e) => e.fault || '', 'wrap'],
            ['body', (e) => (e.body === null ? '' : JSON.stringify(e.body).slice(0, 200)), 'body'],
          ],
          page.result,
          'no requests yet',
        ),
      },
    ];
  }
  function outbox(page: DashboardReads['outbox']): PanelFill[] {
    return [
      { id: 'outbox-count', text: page.total_count + ' in all' },
      {
        id: 'outbox',
        nodes: table(
          [
            ['id', (m) => m.id, 'num'],
            ['sent', (m) => m.sent_at],
            ['to', (m) => m.to, 'wrap'],
            ['kind', (m) => m.kind],
            ['order', (m) => (m.order_id ? cut(m.order_id, 'id') : '')],
            ['subject', (m) => m.subject, 'wrap'],
          ],
          page.result,
          'no messages',
        ),
      },
    ];
  }
  function webhooks(page: DashboardReads['webhooks']): PanelFill[] {
    const c = page.counts;
    return [
      {
        id: 'webhooks-counts',
        text: c.pending + ' pending, ' + c.delivered + ' delivered, ' + c.failed + ' failed, ' + c.dropped + ' dropped',
        // A dropped delivery is never tried again: said in red, never silent.
        cls: c.dropped > 0 || c.failed > 0 ? 'bad' : '',
      },
      {
        id: 'webhooks',
        nodes: table(
          [
            ['event', (d) => cut(d.event_id, 'id')],
            ['type', (d) => d.type],
            ['to', (d) => cut(d.url, 'path')],
            ['state', (d) => d.state],
            ['attempts', (d) => d.attempts.length, 'num'],
            [
              'last answer',
              (d) => {
                const a = d.attempts[d.attempts.length - 1];
                return a ? a.error || a.status : '';
              },
              'wrap',
            ],
          ],
          page.result,
          'no deliveries (mock serve --webhook URL sends each event there)',
        ),
      },
    ];
  }
  function snapshots(page: DashboardReads['snapshots']): PanelFill[] {
    return [
      {
        id: 'snapshots',
        nodes: table(
          [
            ['name', (s) => cut(s.name, 'name')],
            ['world at', (s) => s.now || '', 'soft'],
            ['listings', (s) => (s.listings === null ? '' : s.listings), 'num'],
            ['saved', (s) => s.saved_at, 'soft real-time'],
            ['problem', (s) => s.problem || '', 'wrap'],
            ['', (s) => ({ tag: 'button', text: 'load', snapshot: s.name, disabled: !!s.problem })],
          ],
          page.result,
          'no snapshots',
        ),
      },
    ];
  }
  return { clock, state, orders, faults, requests, outbox, webhooks, snapshots };
}
