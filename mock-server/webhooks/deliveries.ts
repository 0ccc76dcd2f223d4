/**
 * Signed webhooks (`mock serve --webhook URL`, the mock's extension: the spec's notifications are
 * emails): each outbox message made while the mock serves is POSTed to every URL as a signed JSON
 * event, off the request that made it, retried with backoff on a failure, each attempt kept for
 * GET /__mock/webhooks. Each URL takes its turns in its own lane (lane.ts): a bounded queue whose
 * overflow is dropped and counted, so one receiver that hangs neither holds up another nor loses
 * events without a word. Deliveries are side effects, not world state: nothing of them is saved, and
 * a message made while the world is rebuilt (a --state replay, a snapshot brought forward, a
 * rollback) is never sent, since the mock that made it first sent it then.
 */
import type { Dispatcher } from 'undici';
import { formatDateTime } from '../../src/contract/dates.js';
import {
  DEFAULT_WEBHOOK_CONNECTIONS,
  DEFAULT_WEBHOOK_KEEP,
  DEFAULT_WEBHOOK_QUEUE,
  DEFAULT_WEBHOOK_RETRY_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  type WebhookCounts,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookSettings,
  type WebhookState,
} from '../../src/contract/mock-webhooks.js';
import { randomHex } from '../kit/digest.js';
import { signatureHeader, SIGNATURE_HEADER } from '../kit/webhook-signature.js';
import { MockSetupError } from '../kit/setup-error.js';
import type { MockContext } from '../context.js';
import type { Message, World } from '../world/world.js';
import { Lane } from './lane.js';
import { answerWithin, AnswerTimeoutError } from './written-timeout.js';
import { basicAuthorization, randomWebhookSecret, readWebhookUrl, shownUrl, webhookSecretProblem, withoutCredentials } from './targets.js';

/** How often new outbox messages are looked for between requests (the engine's own timer makes them). */
const POLL_MS = 200;
const USER_AGENT = 'mkt-mock-webhooks/1';
/** A receiver's answer body is read this far at most (only its status counts; past it the connection is closed). */
const ANSWER_READ_LIMIT = 64 * 1024;

interface Attempt {
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

/** One receiver: where it is, and its lane of turns. */
interface Target {
  url: URL;
  shown: string;
  /** Basic credentials the URL carried (user:password@), sent as a header. */
  authorization: string | null;
  lane: Lane<Delivery>;
  /** A drop from its queue was said on stderr (once per URL: the counts say how many). */
  dropSaid: boolean;
}

interface Delivery {
  /** Order of making: the list is newest first by it. */
  seq: number;
  eventId: string;
  type: WebhookEvent['type'];
  target: Target;
  body: string;
  attempts: Attempt[];
  state: WebhookState;
  nextAt: number | null;
}

/** The webhooks of a running mock. */
export class Webhooks {
  /** The secret every delivery is signed with. */
  readonly secret: string;
  /** The secret was made here (the CLI prints it once). */
  readonly secretGenerated: boolean;
  private readonly targets: Target[];
  private readonly retryMs: readonly number[];
  private readonly timeoutMs: number;
  private readonly connections: number;
  private readonly keep: number;
  /** Deliveries not yet ended, in the order made (each also in its target's lane, waiting or under way). */
  private readonly pending = new Set<Delivery>();
  /** Ended deliveries in the order they ended, at most `keep` (their counts stay when they go). */
  private readonly ended = new Set<Delivery>();
  private readonly endedCounts = { delivered: 0, failed: 0, dropped: 0 };
  private seq = 0;
  /** The world watched, and the first outbox id of it not yet looked at. */
  private watched: World | null = null;
  private mark = 0;
  /** Bumped by each world replaced: ids stay unique after a reset restarts the outbox's. */
  private generation = 0;
  /** Of this run of the mock: a fresh mock of the same seed makes new ids, so a receiver's record of ids seen still works. */
  private readonly run = randomHex(6);
  private readonly closing = new AbortController();
  private agent: Promise<Dispatcher> | null = null;
  private poll: NodeJS.Timeout | null = null;

  /** Reads `settings` (MockSetupError on a bad URL or secret); `realNow` is the real clock of attempts and signatures. */
  constructor(
    settings: WebhookSettings,
    private readonly ctx: MockContext,
    private readonly realNow: () => number,
  ) {
    this.retryMs = settings.retryMs ?? DEFAULT_WEBHOOK_RETRY_MS;
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.connections = Math.max(1, settings.connections ?? DEFAULT_WEBHOOK_CONNECTIONS);
    this.keep = Math.max(1, settings.keep ?? DEFAULT_WEBHOOK_KEEP);
    const bound = Math.max(1, settings.queue ?? DEFAULT_WEBHOOK_QUEUE);
    this.targets = settings.urls.map((text) => {
      const read = readWebhookUrl(text);
      if ('problem' in read) throw new MockSetupError(`webhook URL ${read.problem}`);
      const lane = new Lane<Delivery>({
        slots: this.connections,
        bound,
        attempt: (d) => this.attempt(d),
        dropped: (d) => this.drop(d, bound),
      });
      return {
        url: withoutCredentials(read.url),
        shown: shownUrl(read.url),
        authorization: basicAuthorization(read.url),
        lane,
        dropSaid: false,
      };
    });
    const problem = settings.secret === undefined ? null : webhookSecretProblem(settings.secret);
    if (problem) throw new MockSetupError(`webhook secret ${problem}`);
    this.secretGenerated = settings.secret === undefined;
    this.secret = settings.secret ?? randomWebhookSecret();
  }

  /** The receivers as shown (a password or secret-named parameter as ***). */
  get urls(): string[] {
    return this.targets.map((t) => t.shown);
  }

  /** From now on, only messages the current world makes after this moment are sent (at start, and when the world is replaced). */
  watchFromHere(): void {
    if (this.watched !== null) this.generation++;
    // Looked for on a timer from the first watch on (a mock that fails to start never gets this far).
    if (!this.poll && !this.closing.signal.aborted) {
      this.poll = setInterval(() => this.collect(), POLL_MS);
      this.poll.unref();
    }
    this.watched = this.ctx.world;
    this.mark = this.ctx.world.outbox.next;
  }

  /** Sends every outbox message made since the last look (before and after each request, and on a timer). */
  collect(): void {
    if (this.closing.signal.aborted) return;
    const world = this.ctx.world;
    // A world replaced under the engine without a word (a --state rollback) holds only what was made, and sent, before.
    if (world !== this.watched) this.watchFromHere();
    const outbox = world.outbox;
    if (outbox.next <= this.mark) return;
    // Messages are in id order: only the tail past the mark is new (a long outbox is not walked each time).
    const messages = outbox.messages;
    let first = messages.length;
    while (first > 0 && messages[first - 1]!.id >= this.mark) first--;
    this.mark = outbox.next;
    for (let i = first; i < messages.length; i++) this.enqueue(messages[i]!);
  }

  /** The deliveries still listed (every pending one, the last `keep` ended), newest first, optionally in one state. */
  list(state?: WebhookState): WebhookDelivery[] {
    const all = [...this.pending, ...this.ended].sort((a, b) => b.seq - a.seq);
    const out: WebhookDelivery[] = [];
    for (const d of all) {
      if (state !== undefined && d.state !== state) continue;
      out.push({
        event_id: d.eventId,
        type: d.type,
        url: d.target.shown,
        state: d.state,
        attempts: d.attempts.map((a) => ({ ...a })),
        next_attempt_at: d.nextAt === null ? null : new Date(d.nextAt).toISOString(),
      });
    }
    return out;
  }

  /** Every delivery made since the mock started, per state: those no longer listed too. */
  counts(): WebhookCounts {
    return { pending: this.pending.size, ...this.endedCounts };
  }

  /** Cancels every retry and attempt under way; no timer or connection is left, and what was still pending is dropped. */
  async close(): Promise<void> {
    this.closing.abort();
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    for (const t of this.targets) for (const d of t.lane.close()) this.end(d, 'dropped');
    await Promise.all(this.targets.map((t) => t.lane.settled()));
    // Those whose attempt the close cut short.
    for (const d of [...this.pending]) this.end(d, 'dropped');
    const agent = this.agent;
    this.agent = null;
    if (agent) await (await agent).destroy();
  }

  private enqueue(m: Message): void {
    const event: WebhookEvent = {
      id: `evt_${this.run}_${this.generation}_${m.id}`,
      type: m.kind,
      created_at: formatDateTime(m.sent_at),
      data: { ...m, sent_at: formatDateTime(m.sent_at) },
    };
    const body = JSON.stringify(event);
    for (const target of this.targets) {
      const d: Delivery = {
        seq: this.seq++,
        eventId: event.id,
        type: event.type,
        target,
        body,
        attempts: [],
        state: 'pending',
        nextAt: null,
      };
      this.pending.add(d);
      target.lane.wait(d, 0);
    }
  }

  /** A delivery pushed out of its URL's full queue: ended as dropped, and said once per URL on stderr. */
  private drop(d: Delivery, bound: number): void {
    this.end(d, 'dropped');
    if (d.target.dropSaid) return;
    d.target.dropSaid = true;
    console.error(
      `mock: the webhook queue of ${d.target.shown} is full (${bound} waiting): the delivery waiting longest is dropped; counts.dropped at GET /__mock/webhooks says how many`,
    );
  }

  /** A delivery ends: counted, and listed among the last `keep` ended. */
  private end(d: Delivery, state: Exclude<WebhookState, 'pending'>): void {
    if (!this.pending.delete(d)) return;
    d.state = state;
    d.nextAt = null;
    this.endedCounts[state]++;
    this.ended.add(d);
    if (this.ended.size > this.keep) this.ended.delete(this.ended.values().next().value!);
  }

  /** One attempt, run by the target's lane off the request that made the event: resolves to the wait before a retry, or null. */
  private async attempt(d: Delivery): Promise<number | null> {
    d.nextAt = null;
    const n = d.attempts.length + 1;
    const at = this.realNow();
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const { request } = await import('undici');
      const res = await request(d.target.url, {
        method: 'POST',
        dispatcher: await this.dispatcher(),
        signal: this.closing.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          [WEBHOOK_EVENT_ID_HEADER]: d.eventId,
          [WEBHOOK_EVENT_TYPE_HEADER]: d.type,
          [WEBHOOK_ATTEMPT_HEADER]: String(n),
          ...(d.target.authorization ? { authorization: d.target.authorization } : {}),
          // Signed at each attempt: a receiver's tolerance for old signatures is measured from the attempt.
          [SIGNATURE_HEADER]: signatureHeader(this.secret, Math.floor(at / 1000), d.body),
        },
        body: d.body,
      });
      status = res.statusCode;
      // The status decides; the body is read within the same limit, and its end is of no matter.
      await res.body.dump({ limit: ANSWER_READ_LIMIT }).catch(() => undefined);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      error =
        err instanceof AnswerTimeoutError
          ? err.message
          : code === 'UND_ERR_CONNECT_TIMEOUT'
            ? `no connection within ${this.timeoutMs} ms`
            : failureText(err);
    }
    // Closing: the attempt was cut short by the mock, not by the receiver (close drops what is left).
    if (this.closing.signal.aborted || d.state !== 'pending') return null;
    d.attempts.push({ at: new Date(at).toISOString(), status, error, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
    if (status !== null && status >= 200 && status < 300) this.end(d, 'delivered');
    else if (n > this.retryMs.length) this.end(d, 'failed');
    else {
      const wait = this.retryMs[n - 1]!;
      d.nextAt = this.realNow() + wait;
      return wait;
    }
    return null;
  }

  /** One connection pool for every receiver, made on first use (undici is loaded only by a mock with webhooks). */
  private dispatcher(): Promise<Dispatcher> {
    // An attempt that began as the mock closed makes no pool that nobody would close.
    if (this.closing.signal.aborted) return Promise.reject(new Error('the mock is closing'));
    // The limit runs from when a request is written (written-timeout.ts); a connect has a limit of its own, as long:
    // it fails before anything is sent, so its retry is never a repeat.
    this.agent ??= import('undici').then(({ Agent }) =>
      new Agent({ connections: this.connections, connect: { timeout: this.timeoutMs } }).compose(answerWithin(this.timeoutMs)),
    );
    return this.agent;
  }
}

/** What went wrong with an attempt that got no answer, in a few words with the system's code. */
function failureText(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code =
    typeof e.code === 'string' && !e.code.startsWith('UND_ERR_') ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  const message = String(e.message ?? err);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
