/**
 * Signed webhooks (`mock serve --webhook URL`, the mock's extension: the spec's notifications are
 * emails): each outbox message made while the mock serves is POSTed to every URL as a signed JSON
 * event, off the request that made it, retried with backoff on a failure, each attempt kept for
 * GET /__mock/webhooks. Deliveries are side effects, not world state: nothing of them is saved, and
 * a message made while the world is rebuilt (a --state replay, a snapshot brought forward, a
 * rollback) is never sent, since the mock that made it first sent it then.
 */
import { randomBytes } from 'node:crypto';
import type { Agent } from 'undici';
import { formatDateTime } from '../../src/contract/dates.js';
import {
  DEFAULT_WEBHOOK_KEEP, DEFAULT_WEBHOOK_RETRY_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, WEBHOOK_ATTEMPT_HEADER, WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER, type WebhookDelivery, type WebhookEvent, type WebhookSettings, type WebhookState,
} from '../../src/contract/mock-webhooks.js';
import { signatureHeader, SIGNATURE_HEADER } from '../kit/webhook-signature.js';
import { MockSetupError } from '../kit/setup-error.js';
import type { MockContext } from '../context.js';
import type { Message, Store } from '../world/store.js';
import { basicAuthorization, randomWebhookSecret, readWebhookUrl, shownUrl, webhookSecretProblem, withoutCredentials } from './targets.js';

/** How often new outbox messages are looked for between requests (the engine's own timer makes them). */
const POLL_MS = 200;
const USER_AGENT = 'mkt-mock-webhooks/1';

interface Attempt { at: string; status: number | null; error: string | null; duration_ms: number }

interface Delivery {
  eventId: string;
  type: WebhookEvent['type'];
  url: URL;
  shown: string;
  /** Basic credentials the URL carried (user:password@), sent as a header. */
  authorization: string | null;
  body: string;
  attempts: Attempt[];
  state: WebhookState;
  nextAt: number | null;
  timer: NodeJS.Timeout | null;
  /** Pushed out of the kept list (or the mock closed): it is tried no more. */
  dropped: boolean;
}

/** The webhooks of a running mock. */
export class Webhooks {
  /** The secret every delivery is signed with. */
  readonly secret: string;
  /** The secret was made here (the CLI prints it once). */
  readonly secretGenerated: boolean;
  private readonly targets: { url: URL; shown: string; authorization: string | null }[];
  private readonly retryMs: readonly number[];
  private readonly timeoutMs: number;
  private readonly keep: number;
  /** Oldest first, at most `keep`. */
  private readonly deliveries: Delivery[] = [];
  /** The world watched, and the first outbox id of it not yet looked at. */
  private world: Store | null = null;
  private mark = 0;
  /** Bumped by each world replaced: ids stay unique after a reset restarts the outbox's. */
  private generation = 0;
  /** Of this run of the mock: a fresh mock of the same seed makes new ids, so a receiver's record of ids seen still works. */
  private readonly run = randomBytes(6).toString('hex');
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private agent: Promise<Agent> | null = null;
  private poll: NodeJS.Timeout | null = null;

  /** Reads `settings` (MockSetupError on a bad URL or secret); `realNow` is the real clock of attempts and signatures. */
  constructor(settings: WebhookSettings, private readonly ctx: MockContext, private readonly realNow: () => number) {
    this.targets = settings.urls.map((text) => {
      const read = readWebhookUrl(text);
      if ('problem' in read) throw new MockSetupError(`webhook URL ${read.problem}`);
      return { url: withoutCredentials(read.url), shown: shownUrl(read.url), authorization: basicAuthorization(read.url) };
    });
    const problem = settings.secret === undefined ? null : webhookSecretProblem(settings.secret);
    if (problem) throw new MockSetupError(`webhook secret ${problem}`);
    this.secretGenerated = settings.secret === undefined;
    this.secret = settings.secret ?? randomWebhookSecret();
    this.retryMs = settings.retryMs ?? DEFAULT_WEBHOOK_RETRY_MS;
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.keep = Math.max(1, settings.keep ?? DEFAULT_WEBHOOK_KEEP);
  }

  /** The receivers as shown (a password or secret-named parameter as ***). */
  get urls(): string[] {
    return this.targets.map((t) => t.shown);
  }

  /** From now on, only messages the current world makes after this moment are sent (at start, and when the world is replaced). */
  watchFromHere(): void {
    if (this.world !== null) this.generation++;
    // Looked for on a timer from the first watch on (a mock that fails to start never gets this far).
    if (!this.poll && !this.closing.signal.aborted) {
      this.poll = setInterval(() => this.collect(), POLL_MS);
      this.poll.unref();
    }
    this.world = this.ctx.store;
    this.mark = this.ctx.store.outbox.next;
  }

  /** Sends every outbox message made since the last look (before and after each request, and on a timer). */
  collect(): void {
    if (this.closing.signal.aborted) return;
    const store = this.ctx.store;
    // A world replaced under the engine without a word (a --state rollback) holds only what was made, and sent, before.
    if (store !== this.world) this.watchFromHere();
    const outbox = store.outbox;
    if (outbox.next <= this.mark) return;
    // Messages are in id order: only the tail past the mark is new (a long outbox is not walked each time).
    const messages = outbox.messages;
    let first = messages.length;
    while (first > 0 && messages[first - 1]!.id >= this.mark) first--;
    this.mark = outbox.next;
    for (let i = first; i < messages.length; i++) this.enqueue(messages[i]!);
  }

  /** The deliveries, newest first, optionally in one state. */
  list(state?: WebhookState): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    for (let i = this.deliveries.length - 1; i >= 0; i--) {
      const d = this.deliveries[i]!;
      if (state !== undefined && d.state !== state) continue;
      out.push({
        event_id: d.eventId, type: d.type, url: d.shown, state: d.state, attempts: d.attempts.map((a) => ({ ...a })),
        next_attempt_at: d.nextAt === null ? null : new Date(d.nextAt).toISOString(),
      });
    }
    return out;
  }

  /** Cancels every retry and attempt under way; no timer or connection is left. */
  async close(): Promise<void> {
    this.closing.abort();
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    for (const d of this.deliveries) this.cancel(d);
    await Promise.all(this.inFlight);
    const agent = this.agent;
    this.agent = null;
    if (agent) await (await agent).destroy();
  }

  private enqueue(m: Message): void {
    const event: WebhookEvent = {
      id: `evt_${this.run}_${this.generation}_${m.id}`, type: m.kind, created_at: formatDateTime(m.sent_at),
      data: { ...m, sent_at: formatDateTime(m.sent_at) },
    };
    const body = JSON.stringify(event);
    for (const target of this.targets) {
      const d: Delivery = {
        eventId: event.id, type: event.type, url: target.url, shown: target.shown, authorization: target.authorization,
        body, attempts: [], state: 'pending', nextAt: null, timer: null, dropped: false,
      };
      this.deliveries.push(d);
      // Bounded: the oldest go, and with them any retry still due.
      while (this.deliveries.length > this.keep) this.cancel(this.deliveries.shift()!);
      this.start(d);
    }
  }

  /** Stops a delivery's retries: its timer, and the retry an attempt still under way would arm when it ends (`dropped`). */
  private cancel(d: Delivery): void {
    if (d.timer) clearTimeout(d.timer);
    d.timer = null;
    d.nextAt = null;
    d.dropped = true;
  }

  /** Runs one attempt off the caller's turn: a delivery never holds up, or fails, the request that made its event. */
  private start(d: Delivery): void {
    const running = this.attempt(d).catch((err: unknown) => console.error('mock: webhook delivery failed unexpectedly', err));
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  private async attempt(d: Delivery): Promise<void> {
    d.timer = null;
    d.nextAt = null;
    const n = d.attempts.length + 1;
    const at = this.realNow();
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = AbortSignal.any([this.closing.signal, timeout]);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const { request } = await import('undici');
      const res = await request(d.url, {
        method: 'POST',
        dispatcher: await this.dispatcher(),
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          [WEBHOOK_EVENT_ID_HEADER]: d.eventId,
          [WEBHOOK_EVENT_TYPE_HEADER]: d.type,
          [WEBHOOK_ATTEMPT_HEADER]: String(n),
          ...(d.authorization ? { authorization: d.authorization } : {}),
          // Signed at each attempt: a receiver's tolerance for old signatures is measured from the attempt.
          [SIGNATURE_HEADER]: signatureHeader(this.secret, Math.floor(at / 1000), d.body),
        },
        body: d.body,
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (err) {
      error = timeout.aborted ? `no answer within ${this.timeoutMs} ms` : failureText(err);
    }
    // Closing: the attempt was cut short by the mock, not by the receiver. Dropped from the kept list: no retry nobody could see or cancel.
    if (this.closing.signal.aborted || d.dropped) return;
    d.attempts.push({ at: new Date(at).toISOString(), status, error, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
    if (status !== null && status >= 200 && status < 300) d.state = 'delivered';
    else if (n > this.retryMs.length) d.state = 'failed';
    else {
      const wait = this.retryMs[n - 1]!;
      d.nextAt = this.realNow() + wait;
      d.timer = setTimeout(() => this.start(d), wait);
      d.timer.unref();
    }
  }

  /** One connection pool for every receiver, made on first use (undici is loaded only by a mock with webhooks). */
  private dispatcher(): Promise<Agent> {
    // An attempt that began as the mock closed makes no pool that nobody would close.
    if (this.closing.signal.aborted) return Promise.reject(new Error('the mock is closing'));
    this.agent ??= import('undici').then(({ Agent }) => new Agent({ connections: 8 }));
    return this.agent;
  }
}

/** What went wrong with an attempt that got no answer, in a few words with the system's code. */
function failureText(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = typeof e.code === 'string' && !e.code.startsWith('UND_ERR_') ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  const message = String(e.message ?? err);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
