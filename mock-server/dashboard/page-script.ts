/**
 * The dashboard's script (GET /__mock/, page.ts): browser code, type-checked with the DOM library and
 * with the contract's types of the admin JSON it reads and sends, which are the schemas every answer of
 * a test's mock is checked against (test/helpers/answer-check-setup.ts): a field the page reads that the
 * answer does not have fails `npm run typecheck` (test/dashboard-script.test.ts shows it).
 *
 * page.ts serves this function's own source text, called with its arguments: `(${dashboardScript})(args, ${dashboardPanels})`.
 * So the function refers to nothing of this module or any other (the bundler may rename what is outside
 * it; the test walks its names): every constant comes in `args`, and the imports here are types only.
 */
import type { Static } from '@sinclair/typebox';
import type { SaveRequestSchema } from '../../src/contract/openapi/admin-snapshots.js';
import type { ClockRequestSchema, FaultsRequestSchema } from '../../src/contract/openapi/admin.js';
import type { DashboardReads, DashboardScriptArgs, PanelFill, PanelNode, dashboardPanels } from './panels.js';

export type { DashboardReads, DashboardScriptArgs } from './panels.js';

/** What each admin route the page writes to takes (POST `admin` + `/` + the key). */
export interface DashboardWrites {
  clock: Static<typeof ClockRequestSchema>;
  faults: Static<typeof FaultsRequestSchema>;
  snapshots: Static<typeof SaveRequestSchema>;
}

/**
 * The page's script; runs once in the browser when the page loads, over the panels' renderer (panels.ts,
 * served beside it as its own source text): the page came with every panel filled, this keeps them up to date.
 */
export function dashboardScript(args: DashboardScriptArgs, makePanels: typeof dashboardPanels): void {
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
  function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
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
  /** A panel's node as an element: its text as text, its few attributes set one by one. */
  function build(n: PanelNode): HTMLElement {
    const e = el(n.tag, n.text, n.cls);
    if (n.title !== undefined) e.title = n.title;
    if (e instanceof HTMLTableCellElement) {
      if (n.rows !== undefined) e.rowSpan = n.rows;
      if (n.cols !== undefined) e.colSpan = n.cols;
    }
    if (n.snapshot !== undefined) e.setAttribute('data-snapshot', n.snapshot);
    if (e instanceof HTMLButtonElement) e.disabled = !!n.disabled;
    (n.children || []).forEach((c) => e.appendChild(build(c)));
    return e;
  }
  function apply(fills: readonly PanelFill[]): void {
    fills.forEach((f) => {
      const e = $(f.id);
      if (f.nodes) e.replaceChildren(...f.nodes.map(build));
      else e.textContent = f.text ?? '';
      if (f.cls !== undefined) e.className = f.cls;
    });
  }
  const panels = makePanels(args);
  /** The clock's buttons are off while a move runs (the page's own, or anyone's). */
  function showClock(c: DashboardReads['clock']): void {
    apply(panels.clock(c));
    const busy = moving || !!c.move;
    document.querySelectorAll<HTMLButtonElement>('button.advance').forEach((b) => (b.disabled = busy));
  }
  function show<K extends keyof DashboardReads>(route: K): (data: DashboardReads[K]) => void {
    return (data) => apply(panels[route](data));
  }
  // One read of each panel at a time: a poll finds the last still running and waits for it; after an
  // action (fresh) a read begun before it is followed by another, so the page shows the world after it.
  const pending = new Map<keyof DashboardReads, Promise<void>>();
  function refresh<K extends keyof DashboardReads>(
    route: K,
    query: string,
    display: (data: DashboardReads[K]) => void,
    fresh: boolean,
  ): Promise<void> {
    const running = pending.get(route);
    if (running) return fresh ? running.catch(() => undefined).then(() => refresh(route, query, display, fresh)) : running;
    const p: Promise<void> = read(route, query)
      .then(display)
      .finally(() => {
        if (pending.get(route) === p) pending.delete(route);
      });
    pending.set(route, p);
    return p;
  }
  function refreshFast(fresh: boolean): Promise<unknown> {
    return Promise.all([
      refresh('clock', '', showClock, fresh),
      // Orders move with the clock (and with a client's POST): as often as the clock.
      refresh('orders', '?limit=' + args.rows.orders, show('orders'), fresh),
      refresh('requests', '?limit=' + args.rows.requests, show('requests'), fresh),
    ]);
  }
  function refreshAll(fresh: boolean): Promise<unknown> {
    return Promise.all([
      refreshFast(fresh),
      refresh('state', '', show('state'), fresh),
      refresh('faults', '', show('faults'), fresh),
      refresh('outbox', '?limit=' + args.rows.outbox, show('outbox'), fresh),
      refresh('webhooks', '?limit=' + args.rows.webhooks, show('webhooks'), fresh),
      refresh('snapshots', '', show('snapshots'), fresh),
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
  // The load buttons come and go with the list (and with the page as sent): one listener on the panel.
  $('snapshots').addEventListener('click', (event) => {
    const b = event.target instanceof Element ? event.target.closest('button[data-snapshot]') : null;
    const name = b?.getAttribute('data-snapshot');
    if (name) act('loading ' + name, call('POST', '/snapshots/' + encodeURIComponent(name) + '/load'));
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
