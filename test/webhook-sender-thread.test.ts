/**
 * The webhook sender's own thread (src/webhooks/attempt-sender.ts, what `serve` uses): the
 * attempt it makes is the same as in the calling thread — Standard Webhooks headers and a
 * signature the `standardwebhooks` package accepts, the answer's status and Retry-After — the
 * address rule is applied in the thread, and attempts in flight when it stops end as "no answer"
 * (retried on the schedule) instead of waiting for ever.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createThreadSender, type AttemptSender } from '../src/webhooks/attempt-sender.ts';
import { newSigningSecret } from '../src/webhooks/signature.ts';
import { USER_AGENT } from '../src/webhooks/webhook-sender.ts';
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
