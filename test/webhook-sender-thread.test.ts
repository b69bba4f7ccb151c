/**
 * The webhook sender's own thread (src/webhooks/attempt-sender.ts, what `serve` uses): the
 * attempt it makes is the same as in the calling thread — Standard Webhooks headers and a
 * signature the `standardwebhooks` package accepts, the answer's status and Retry-After — the
 * address rule is applied in the thread, and attempts in flight when it stops end as "no answer"
 * (retried on the schedule) instead of waiting for ever.
 */
import { after, before, mock, test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createInThreadSender, createThreadSender, type AttemptSender, type ToSenderThread } from '../src/webhooks/attempt-sender.ts';
import { systemResolver } from '../src/webhooks/safe-lookup.ts';
import { newSigningSecret } from '../src/webhooks/signature.ts';
import { USER_AGENT } from '../src/webhooks/webhook-sender.ts';
import type { SecretWarning } from '../src/webhooks/signing-secrets.ts';
import { KeyRing, SecretUnreadableError } from '../src/secrets/key-ring.ts';
import { sealColumn, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '../src/secrets/secret-columns.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
});

function sender(allowPrivate: boolean, timeoutMs = 5000): AttemptSender {
  return createThreadSender({ maxSockets: 4, timeoutMs, allowPrivate, trustedCa: receiver.ca });
}

const attempt = (path: string, secrets: string[], host = '127.0.0.1', body = '{"type":"company.changed"}') => ({
  url: receiver.url(path, host),
  webhookId: `msg_${path.slice(1)}`,
  timestampSeconds: Math.floor(Date.now() / 1000),
  secrets,
  body,
});

test('an attempt from the thread is signed and sent as Standard Webhooks 1.0 says, with both secrets while rotating', async () => {
  const thread = sender(true);
  try {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    receiver.answer = () => ({ status: 204 });
    const result = await thread.send(attempt('/thread-sign', [current, previous]));
    assert.deepEqual(result, { kind: 'answered', status: 204, retryAfter: null });
    const got = receiver.received.find((r) => r.path === '/thread-sign')!;
    assert.equal(got.headers['user-agent'], USER_AGENT);
    assert.equal(got.headers['webhook-id'], 'msg_thread-sign');
    for (const secret of [current, previous]) {
      assert.deepEqual(new Webhook(secret.slice('whsec_'.length)).verify(got.body, got.headers as Record<string, string>), { type: 'company.changed' });
    }
    receiver.answer = () => ({ status: 429, headers: { 'retry-after': '7' } });
    assert.deepEqual(await thread.send(attempt('/thread-later', [current])), { kind: 'answered', status: 429, retryAfter: '7' });
  } finally {
    thread.close();
  }
});

test('the thread applies the address rule at connection time: a name that resolves to loopback is refused unless allowed', async () => {
  const thread = sender(false);
  try {
    // The system's resolver (the thread's): `localhost` is loopback.
    const result = await thread.send(attempt('/thread-private', [newSigningSecret()], 'localhost'));
    assert.equal(result.kind, 'no_answer');
    assert.match((result as { error: string }).error, /does not resolve to a public address/);
    assert.equal(receiver.received.filter((r) => r.path === '/thread-private').length, 0);
  } finally {
    thread.close();
  }
});

test('a secret that cannot sign fails the attempt (rejects), as in the calling thread; the thread goes on', async () => {
  const thread = sender(true);
  try {
    await assert.rejects(thread.send(attempt('/thread-bad', ['not-a-secret'])), /starts with whsec_/);
    receiver.answer = () => ({ status: 200 });
    assert.equal((await thread.send(attempt('/thread-after-bad', [newSigningSecret()]))).kind, 'answered');
  } finally {
    thread.close();
  }
});

test('attempts in flight when the sender closes end as "no answer" at once, not never', async () => {
  const thread = sender(true, 60_000);
  receiver.answer = () => 'hang';
  const pending = thread.send(attempt('/thread-hang', [newSigningSecret()]));
  await receiver.waitFor(receiver.received.length + 1);
  thread.close();
  const result = await pending;
  assert.equal(result.kind, 'no_answer');
  assert.match((result as { error: string }).error, /the sending thread stopped/);
  receiver.dropHanging();
});

test('an endpoint given as an IP literal is refused at connection time too (Node skips `lookup` for one), in the thread and in the calling thread', async () => {
  // Registered while private addresses were allowed, then sent once they no longer are: nothing may reach the address.
  const senders = [
    sender(false),
    createInThreadSender({ maxSockets: 4, timeoutMs: 5000, trustedCa: receiver.ca }, { resolve: systemResolver, allowPrivate: false }),
  ];
  try {
    receiver.answer = () => ({ status: 204 });
    for (const s of senders) {
      for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0']) {
        const result = await s.send(attempt('/thread-literal', [newSigningSecret()], host));
        assert.equal(result.kind, 'no_answer', host);
        assert.match((result as { error: string }).error, /does not resolve to a public address/, host);
      }
    }
    assert.equal(receiver.received.filter((r) => r.path === '/thread-literal').length, 0);
    // Allowed, the same literal is sent to.
    const allowed = sender(true);
    try {
      assert.equal((await allowed.send(attempt('/thread-literal-allowed', [newSigningSecret()], '127.0.0.1'))).kind, 'answered');
    } finally {
      allowed.close();
    }
  } finally {
    for (const s of senders) s.close();
  }
});

test("a claim's attempts started in one turn cross to the thread in one message, each signed and answered on its own", async () => {
  const thread = sender(true);
  const posted = mock.method(Worker.prototype, 'postMessage');
  try {
    receiver.answer = () => ({ status: 204 });
    const secret = newSigningSecret();
    const paths = Array.from({ length: 8 }, (_, i) => `/thread-burst-${i}`);
    const results = await Promise.all(paths.map((path) => thread.send(attempt(path, [secret], '127.0.0.1', `{"n":${path.length}}`))));
    assert.deepEqual(
      results.map((r) => r.kind),
      paths.map(() => 'answered'),
    );
    // (Under tsx the module loader's own thread is a Worker too: its messages are not ours.)
    const toTheSender = posted.mock.calls.map((call) => call.arguments[0] as ToSenderThread).filter((message) => message?.kind === 'send');
    assert.equal(toTheSender.length, 1, 'one message for the eight attempts');
    assert.equal(toTheSender[0]!.kind === 'send' && toTheSender[0]!.requests.length, 8);
    for (const path of paths) {
      const got = receiver.received.find((r) => r.path === path)!;
      assert.equal(got.headers['webhook-id'], `msg_${path.slice(1)}`);
      new Webhook(secret.slice('whsec_'.length)).verify(got.body, got.headers as Record<string, string>);
    }
  } finally {
    posted.mock.restore();
    thread.close();
  }
});

/** The nice value of each of this process's threads (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
}

test('the sending thread gives way to the serving thread: 10 nice steps below it (Linux)', { skip: process.platform !== 'linux' }, async () => {
  const before = threadNiceValues();
  const serving = before.get(process.pid)!;
  const thread = sender(true);
  try {
    receiver.answer = () => ({ status: 204 });
    assert.equal((await thread.send(attempt('/thread-nice', [newSigningSecret()]))).kind, 'answered');
    const lowered = [...threadNiceValues()].filter(([tid, nice]) => !before.has(tid) && nice === Math.min(19, serving + 10));
    assert.equal(lowered.length, 1, `exactly one new thread (the sender) at nice ${Math.min(19, serving + 10)}`);
    assert.equal(threadNiceValues().get(process.pid), serving, 'the serving (main) thread is not lowered');
  } finally {
    thread.close();
  }
});

test("sealed secrets are opened in the sending thread with the process's ring: signed with both while rotating, none opened by the serving thread", async () => {
  const ring = KeyRing.generate('k1');
  const warnings: SecretWarning[] = [];
  const thread = createThreadSender({ maxSockets: 4, timeoutMs: 5000, allowPrivate: true, trustedCa: receiver.ca, ring, warn: (w) => warnings.push(w) });
  const opened = mock.method(KeyRing.prototype, 'open');
  try {
    receiver.answer = () => ({ status: 204 });
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const sealed = {
      endpointId: 7,
      current: sealColumn(ring, WEBHOOK_SECRET, 7, current),
      previous: sealColumn(ring, WEBHOOK_PREVIOUS_SECRET, 7, previous),
      previousUntil: Date.now() + 60_000,
      at: Date.now(),
    };
    const result = await thread.send({ ...attempt('/thread-sealed-both', []), secrets: sealed });
    assert.deepEqual(result, { kind: 'answered', status: 204, retryAfter: null });
    const got = receiver.received.find((r) => r.path === '/thread-sealed-both')!;
    for (const secret of [current, previous]) {
      assert.deepEqual(new Webhook(secret.slice('whsec_'.length)).verify(got.body, got.headers as Record<string, string>), { type: 'company.changed' });
    }
    // Past its 24 hours the previous secret no longer signs.
    await thread.send({ ...attempt('/thread-sealed-current', []), secrets: { ...sealed, previousUntil: sealed.at - 1 } });
    const currentOnly = receiver.received.find((r) => r.path === '/thread-sealed-current')!;
    assert.equal(String(currentOnly.headers['webhook-signature']).split(' ').length, 1);
    assert.equal(opened.mock.callCount(), 0, 'the serving thread opened no secret');
    assert.deepEqual(warnings, []);
  } finally {
    opened.mock.restore();
    thread.close();
  }
});

test('in the sending thread, a current secret the ring cannot open is not sent (SecretUnreadableError with its key id); an unreadable previous one signs with the current only, with a warning', async () => {
  const ring = KeyRing.generate('k1');
  const other = KeyRing.generate('lost');
  const warnings: SecretWarning[] = [];
  const thread = createThreadSender({ maxSockets: 4, timeoutMs: 5000, allowPrivate: true, trustedCa: receiver.ca, ring, warn: (w) => warnings.push(w) });
  try {
    receiver.answer = () => ({ status: 204 });
    const current = newSigningSecret();
    const at = Date.now();
    const unreadable = { endpointId: 8, current: sealColumn(other, WEBHOOK_SECRET, 8, current), previous: null, previousUntil: null, at };
    await assert.rejects(thread.send({ ...attempt('/thread-unreadable', []), secrets: unreadable }), (error: unknown) => {
      assert.ok(error instanceof SecretUnreadableError);
      assert.equal(error.keyId, 'lost');
      return true;
    });
    assert.equal(receiver.received.filter((r) => r.path === '/thread-unreadable').length, 0, 'nothing sent');
    // Moved from another row: the binding to the row refuses it too.
    const moved = { ...unreadable, endpointId: 9, current: sealColumn(ring, WEBHOOK_SECRET, 8, current) };
    await assert.rejects(thread.send({ ...attempt('/thread-moved', []), secrets: moved }), SecretUnreadableError);
    const previousLost = {
      endpointId: 8,
      current: sealColumn(ring, WEBHOOK_SECRET, 8, current),
      previous: sealColumn(other, WEBHOOK_PREVIOUS_SECRET, 8, newSigningSecret()),
      previousUntil: at + 60_000,
      at,
    };
    assert.equal((await thread.send({ ...attempt('/thread-previous-lost', []), secrets: previousLost })).kind, 'answered');
    const got = receiver.received.find((r) => r.path === '/thread-previous-lost')!;
    new Webhook(current.slice('whsec_'.length)).verify(got.body, got.headers as Record<string, string>);
    assert.equal(String(got.headers['webhook-signature']).split(' ').length, 1);
    assert.deepEqual(
      warnings.map((w) => [w.endpoint, w.keyId]),
      [[8, 'lost']],
    );
  } finally {
    thread.close();
  }
});
