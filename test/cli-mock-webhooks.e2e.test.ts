/**
 * `mkt mock serve --webhook URL [--webhook-secret S]`, spawned as a user runs it: bad settings are
 * exit 2 naming the flag; a secret it makes is printed once, on stderr; a kill -9 and a restart from
 * the --state folder send nothing a second time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { WebhookDelivery, WebhookEvent } from '../src/contract/mock-webhooks.js';
import { runMkt } from './helpers/cli.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

const children: ServedMock[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const c of children.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.kill('SIGKILL');
      await c.exited;
    }
  for (const r of receivers.splice(0)) await r.close();
});

/** The receiver's check, the three lines of the docs. */
function verify(header: string, body: string, secret: string): boolean {
  const { t = '', v1 = '' } = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2)));
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  const valid =
    Buffer.byteLength(v1) === 64
    && timingSafeEqual(Buffer.from(v1), Buffer.from(expected))
    && Math.abs(Date.now() / 1000 - Number(t)) < 300;
  return valid;
}

/** An order refused by validation (ORD0032, not JSON): one order_validation_error event. */
async function refuse(origin: string, token: string): Promise<void> {
  const res = await fetch(`${origin}/v1/orders`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: 'not json',
  });
  expect(res.status).toBe(400);
}

async function serve(args: string[]): Promise<ServedMock> {
  const m = await serveMock(args);
  children.push(m);
  return m;
}

describe('mkt mock serve --webhook', () => {
  test('a URL that is not http(s), an empty secret, or a secret without a URL is exit 2 naming the flag', async () => {
    const ftp = await runMkt(['mock', 'serve', '--port', '0', '--webhook', 'ftp://127.0.0.1/x']);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain("--webhook 'ftp://127.0.0.1/x' is not an http or https URL");
    const junk = await runMkt(['mock', 'serve', '--port', '0', '--webhook', 'http//nowhere']);
    expect(junk.code).toBe(2);
    expect(junk.stderr).toContain("--webhook 'http//nowhere' is not a URL");
    const empty = await runMkt(['mock', 'serve', '--port', '0', '--webhook', 'http://127.0.0.1:9/', '--webhook-secret', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--webhook-secret must not be empty');
    const alone = await runMkt(['mock', 'serve', '--port', '0', '--webhook-secret', 's3cret']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--webhook-secret needs --webhook');
    expect(alone.stderr).not.toContain('s3cret');
  });

  test('a made secret is printed once on stderr and signs; after kill -9 a restart from --state sends only new events', async () => {
    const r = await receiver();
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-hooks-e2e-')), 'state');
    const args = ['--state', dir, '--frozen', '--listings', '50', '--auto-approve', 'alice', '--webhook', r.url];
    const first = await serve(args);
    expect(first.banner).toContain(`webhooks: each outbox event POSTed, signed (Mkt-Signature), to ${r.url}`);
    await refuse(first.origin, await aliceToken(first.origin));
    const [got] = await r.waitFor(1);
    const printed = /webhook secret \(verify Mkt-Signature with it; set your own with --webhook-secret\): (\S+)\n/.exec(first.stderr());
    expect(printed).not.toBeNull();
    const secret = printed![1]!;
    expect(first.stderr().split(secret)).toHaveLength(2);
    expect(first.banner).not.toContain(secret);
    expect(verify(String(got!.headers['mkt-signature']), got!.body, secret)).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;

    // A second receiver where nothing listens: its retries are still due when the mock is stopped.
    const second = await serve([...args, '--webhook', 'http://127.0.0.1:9/hooks', '--webhook-secret', 'chosen-secret']);
    expect(second.stderr()).not.toContain('chosen-secret');
    const outbox = (await (await fetch(`${second.origin}/__mock/outbox`)).json()) as { result: { id: number }[] };
    expect(outbox.result.map((m) => m.id)).toEqual([1]);
    await refuse(second.origin, await aliceToken(second.origin));
    const all = await r.waitFor(2);
    const events = all.map((g) => JSON.parse(g.body) as WebhookEvent);
    expect(events.map((e) => e.data.id)).toEqual([1, 2]);
    expect(verify(String(all[1]!.headers['mkt-signature']), all[1]!.body, 'chosen-secret')).toBe(true);
    expect(verify(String(all[1]!.headers['mkt-signature']), all[1]!.body, secret)).toBe(false);
    let listed: WebhookDelivery[] = [];
    for (let i = 0; i < 200; i++) {
      listed = ((await (await fetch(`${second.origin}/__mock/webhooks`)).json()) as { result: WebhookDelivery[] }).result;
      if (listed.some((d) => d.url === 'http://127.0.0.1:9/hooks' && d.attempts.length > 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(listed.map((d) => d.event_id)).toEqual([events[1]!.id, events[1]!.id]);
    expect(listed.find((d) => d.url === r.url)!.state).toBe('delivered');
    expect(listed.find((d) => d.url !== r.url)).toMatchObject({ state: 'pending', attempts: [{ status: null }] });
    // The README's schedule: the first retry of the default one (1, 2, 4, 8 s) is due a second after the failed attempt ended.
    const due = listed.find((d) => d.url !== r.url)!;
    const waited = Date.parse(due.next_attempt_at!) - Date.parse(due.attempts[0]!.at) - due.attempts[0]!.duration_ms;
    expect(waited).toBeGreaterThanOrEqual(995);
    expect(waited).toBeLessThan(1500);
    // Stopped with a retry due: the process ends (no timer or connection of the webhooks keeps it).
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(r.got).toHaveLength(2);
  });
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}
