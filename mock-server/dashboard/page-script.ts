/**
 * The dashboard's script (GET /__mock/, page.ts): browser code, type-checked with the DOM library and
 * with the contract's types of the admin JSON it reads and sends, which are the schemas every answer of
 * a test's mock is checked against (test/helpers/answer-check-setup.ts): a field the page reads that the
 * answer does not have fails `npm run typecheck` (test/dashboard-script.test.ts shows it).
 *
 * page.ts serves this function's own source text, called with its arguments: `(${dashboardScript})(args)`.
 * So the function refers to nothing of this module or any other (the bundler may rename what is outside
 * it; the test walks its names): every constant comes in `args`, and the imports here are types only.
 */
import type { Static } from '@sinclair/typebox';
import type { RequestLogEntry, OutboxMessage } from '../../src/contract/mock-inspect.js';
import type { WebhookPageSchema } from '../../src/contract/mock-webhooks.js';
import type { SaveRequestSchema, SnapshotSchema } from '../../src/contract/openapi/admin-snapshots.js';
import type {
  ClockRequestSchema,
  ClockStateSchema,
  FaultsRequestSchema,
  FaultsSchema,
  MockStateSchema,
} from '../../src/contract/openapi/admin.js';
import type { ListEnvelope } from '../../src/contract/resources.js';

/** What each admin route the page reads answers (GET `admin` + `/` + the key). */
export interface DashboardReads {
  clock: Static<typeof ClockStateSchema>;
  state: Static<typeof MockStateSchema>;
  faults: Static<typeof FaultsSchema>;
  requests: ListEnvelope<RequestLogEntry>;
  outbox: ListEnvelope<OutboxMessage>;
  webhooks: Static<typeof WebhookPageSchema>;
  snapshots: ListEnvelope<Static<typeof SnapshotSchema>>;
}

/** What each admin route the page writes to takes (POST `admin` + `/` + the key). */
export interface DashboardWrites {
  clock: Static<typeof ClockRequestSchema>;
  faults: Static<typeof FaultsRequestSchema>;
  snapshots: Static<typeof SaveRequestSchema>;
}

/** The constants the script needs, passed in as JSON (it can see nothing else). */
export interface DashboardScriptArgs {
  /** Listing status names by code (src/contract/enums.ts LISTING_STATUSES). */
  statusNames: Readonly<Record<string, string>>;
  /** Request log entries shown, the newest. */
  requestLogRows: number;
  /** The header that marks the page's reads (src/contract/mock-admin.ts DASHBOARD_HEADER), left out of the request log. */
  dashboardHeader: string;
}

/** A cell's content: text (any value, shown with textContent) or an element. */
type Cell = string | number | boolean | null | undefined | Node;
/** A table column: its heading, the cell of a row, and the cells' class. */
type Column<R> = readonly [heading: string, cell: (row: R) => Cell, cls?: string];

/** The page's script; runs once in the browser when the page loads. */
export function dashboardScript(args: DashboardScriptArgs): void {
  'use strict';
  const admin = document.documentElement.getAttribute('data-admin') || '/__mock';
  let moving = false;

  function $(id: string): HTMLElement {
    const e = document.getElementById(id);
    if (!e) throw new Error('the page has no #' + id);
    return e;
  }
  function input(id: string): HTMLInputElement {
    const e = $(id);
    if (!(e instanceof HTMLInputElement)) throw new Error('#' + id + ' is not an input');
    return e;
  }
  function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: Cell, cls?: string): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function say(text: string, isError: boolean): void {
    const s = $('status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
  }
  /** The message of an error answer, if it has one (a proxy or a dying server may answer anything). */
  function messageOf(data: unknown): string {
    const message = data !== null && typeof data === 'object' ? (data as { message?: unknown }).message : undefined;
    return typeof message === 'string' && message ? ' ' + message : '';
  }
  function call(method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', [args.dashboardHeader]: '1' };
    const init: RequestInit = { method, cache: 'no-store', headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(admin + route, init).then((res) =>
      res.text().then((text) => {
        let data: unknown = null;
        try {
          data = text ? JSON.parse(text) : null;
        } catch {
          data = null;
        }
        if (!res.ok) throw new Error(method + ' ' + admin + route + ': ' + res.status + messageOf(data));
        return data;
      }),
    );
  }
  function read<K extends keyof DashboardReads>(route: K, query: string): Promise<DashboardReads[K]> {
    return call('GET', '/' + route + query) as Promise<DashboardReads[K]>;
  }
  function write<K extends keyof DashboardWrites>(route: K, body: DashboardWrites[K]): Promise<unknown> {
    return call('POST', '/' + route, body);
  }
  function money(n: number): string {
    return typeof n === 'number' ? n.toFixed(2) : String(n);
  }
  function table<R>(target: HTMLElement, columns: readonly Column<R>[], rows: readonly R[], empty: string): void {
    if (rows.length === 0) {
      target.replaceChildren(el('p', empty));
      return;
    }
    const t = el('table');
    const head = el('tr');
    columns.forEach((c) => head.appendChild(el('th', c[0], c[2])));
    t.appendChild(el('thead')).appendChild(head);
    const tbody = t.appendChild(el('tbody'));
    rows.forEach((r) => {
      const tr = el('tr');
      columns.forEach((c) => {
        const v = c[1](r);
        if (v instanceof Node) {
          const td = el('td', null, c[2]);
          td.appendChild(v);
          tr.appendChild(td);
        } else tr.appendChild(el('td', v, c[2]));
      });
      tbody.appendChild(tr);
    });
    target.replaceChildren(t);
  }
  function showClock(c: DashboardReads['clock']): void {
    $('clock-now').textContent = c.now;
    $('clock-state').textContent = c.frozen ? 'frozen' : 'running';
    $('clock-move').textContent = c.move ? 'moving to ' + c.move.to + ': day ' + c.move.days_done + ' of ' + c.move.days : '';
    const busy = moving || !!c.move;
    document.querySelectorAll<HTMLButtonElement>('button.advance').forEach((b) => (b.disabled = busy));
  }
  function showState(s: DashboardReads['state']): void {
    $('world-now').textContent = s.now;
    const facts: [string, number][] = [
      ['seed', s.seed],
      ['listings', s.listings],
      ['orders', s.orders],
      ['orders queued', s.orders_queued],
      ['loans', s.loans],
      ['notes', s.notes],
      ['outbox messages', s.outbox_messages],
    ];
    table(
      $('world-facts'),
      [
        ['', (f) => f[0]],
        ['', (f) => f[1], 'num'],
      ],
      facts,
      '',
    );
    const inv = $('world-invariants');
    inv.textContent = s.invariants.ok ? 'invariants hold' : 'invariants broken: ' + s.invariants.violations.join('; ');
    inv.className = s.invariants.ok ? '' : 'bad';
    const statuses = Object.keys(s.listings_by_status).sort((a, b) => Number(a) - Number(b));
    table(
      $('listings-by-status'),
      [
        ['status', (k) => k],
        ['name', (k) => args.statusNames[k] || ''],
        ['listings', (k) => s.listings_by_status[k], 'num'],
      ],
      statuses,
      'no listings',
    );
    table(
      $('accounts'),
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
    );
  }
  function showFaults(f: DashboardReads['faults']): void {
    const keys = Object.keys(f) as (keyof typeof f)[];
    table(
      $('faults'),
      [
        ['setting', (k) => k],
        ['value', (k) => (f[k] === null ? '(any)' : f[k])],
      ],
      keys,
      'none',
    );
    const on =
      f.latency_ms > 0
      || f.handler_delay_ms > 0
      || f.error_rate > 0
      || f.rate_limit_rate > 0
      || f.drop_rate > 0
      || f.drop_response_rate > 0;
    $('faults-on').textContent = on ? 'faults are injected' : 'no faults';
    $('faults-on').className = on ? 'bad' : '';
  }
  function showRequestLog(page: DashboardReads['requests']): void {
    $('request-log-count').textContent = page.total_count + ' kept';
    table(
      $('request-log'),
      [
        ['id', (e) => e.id, 'num'],
        ['virtual time', (e) => e.virtual_at],
        ['method', (e) => e.method],
        ['path', (e) => e.path + (e.query ? '?' + e.query : '')],
        ['status', (e) => (e.status === null ? 'dropped' : e.status), 'num'],
        ['ms', (e) => e.duration_ms, 'num'],
        ['account', (e) => e.account || ''],
        ['fault', (e) => e.fault || ''],
        ['body', (e) => (e.body === null ? '' : JSON.stringify(e.body).slice(0, 200)), 'body'],
      ],
      page.result,
      'no requests yet',
    );
  }
  function showOutbox(page: DashboardReads['outbox']): void {
    $('outbox-count').textContent = page.total_count + ' in all';
    table(
      $('outbox'),
      [
        ['id', (m) => m.id, 'num'],
        ['sent', (m) => m.sent_at],
        ['to', (m) => m.to],
        ['kind', (m) => m.kind],
        ['order', (m) => m.order_id || ''],
        ['subject', (m) => m.subject],
      ],
      page.result,
      'no messages',
    );
  }
  function showWebhooks(page: DashboardReads['webhooks']): void {
    const c = page.counts;
    $('webhooks-counts').textContent =
      c.pending + ' pending, ' + c.delivered + ' delivered, ' + c.failed + ' failed, ' + c.dropped + ' dropped';
    // A dropped delivery is never tried again: said in red, never silent.
    $('webhooks-counts').className = c.dropped > 0 || c.failed > 0 ? 'bad' : '';
    table(
      $('webhooks'),
      [
        ['event', (d) => d.event_id],
        ['type', (d) => d.type],
        ['to', (d) => d.url],
        ['state', (d) => d.state],
        ['attempts', (d) => d.attempts.length, 'num'],
        [
          'last answer',
          (d) => {
            const a = d.attempts[d.attempts.length - 1];
            return a ? a.error || a.status : '';
          },
        ],
      ],
      page.result,
      'no deliveries (mock serve --webhook URL sends each event there)',
    );
  }
  function showSnapshots(page: DashboardReads['snapshots']): void {
    table(
      $('snapshots'),
      [
        ['name', (s) => s.name],
        ['world at', (s) => s.now || ''],
        ['listings', (s) => (s.listings === null ? '' : s.listings), 'num'],
        ['saved', (s) => s.saved_at],
        ['problem', (s) => s.problem || ''],
        [
          '',
          (s) => {
            const b = el('button', 'load');
            b.disabled = !!s.problem;
            b.addEventListener('click', () => act('loading ' + s.name, call('POST', '/snapshots/' + encodeURIComponent(s.name) + '/load')));
            return b;
          },
        ],
      ],
      page.result,
      'no snapshots',
    );
  }
  // One read of each panel at a time: a poll finds the last still running and waits for it; after an
  // action (fresh) a read begun before it is followed by another, so the page shows the world after it.
  const pending = new Map<keyof DashboardReads, Promise<void>>();
  function refresh<K extends keyof DashboardReads>(
    route: K,
    query: string,
    show: (data: DashboardReads[K]) => void,
    fresh: boolean,
  ): Promise<void> {
    const running = pending.get(route);
    if (running) return fresh ? running.catch(() => undefined).then(() => refresh(route, query, show, fresh)) : running;
    const p: Promise<void> = read(route, query)
      .then(show)
      .finally(() => {
        if (pending.get(route) === p) pending.delete(route);
      });
    pending.set(route, p);
    return p;
  }
  function refreshFast(fresh: boolean): Promise<unknown> {
    return Promise.all([
      refresh('clock', '', showClock, fresh),
      refresh('requests', '?limit=' + args.requestLogRows, showRequestLog, fresh),
    ]);
  }
  function refreshAll(fresh: boolean): Promise<unknown> {
    return Promise.all([
      refreshFast(fresh),
      refresh('state', '', showState, fresh),
      refresh('faults', '', showFaults, fresh),
      refresh('outbox', '?limit=20', showOutbox, fresh),
      refresh('webhooks', '?limit=20', showWebhooks, fresh),
      refresh('snapshots', '', showSnapshots, fresh),
    ]);
  }
  /** Does `what` (a request under way), then reads every panel afresh; its failure is said in the status line, where it stays. */
  function act(what: string, done: Promise<unknown>): void {
    say(what + '...', false);
    done
      .then(() => refreshAll(true))
      .then(() => say(what + ': done', false))
      .catch((err: Error) => say(err.message, true));
  }
  document.querySelectorAll<HTMLButtonElement>('button.advance').forEach((b) => {
    b.addEventListener('click', () => {
      const by = b.getAttribute('data-advance') ?? '';
      moving = true;
      const move = write('clock', { advance: by });
      // The clock panel shows the move's progress at once; its failure is the next poll's to show.
      refreshFast(false).catch(() => undefined);
      act(
        'moving the clock ' + by,
        move.finally(() => (moving = false)),
      );
    });
  });
  $('faults-clear').addEventListener('click', () => act('clearing the faults', write('faults', {})));
  $('snapshot-save').addEventListener('click', () => {
    const name = input('snapshot-name').value.trim();
    act('saving ' + name, write('snapshots', { name, replace: input('snapshot-replace').checked }));
  });
  let ticks = 0;
  function tick(): void {
    ticks++;
    // A poll that failed (the mock restarting, say) is shown until one succeeds again; an action's failure stays.
    (ticks % 5 === 0 ? refreshAll(false) : refreshFast(false)).then(
      () => {
        if ($('status').className === 'error' && /^GET /.test($('status').textContent ?? '')) say('', false);
      },
      (err: Error) => say(err.message, true),
    );
  }
  refreshAll(false).then(
    () => document.documentElement.setAttribute('data-loaded', '1'),
    (err: Error) => say(err.message, true),
  );
  setInterval(tick, 2000);
}
