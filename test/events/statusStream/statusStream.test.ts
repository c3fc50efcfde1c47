// covers: status:waiting, status:pending, status:submitted, status:success, transition:waiting->pending
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import WebSocket from 'ws';
import type { RunningSimulator } from '../../../src/simulator';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../../../src/events/statusStream/StatusStreamServer';
import { executeQuoteSteps, waitForSettledStatus } from '../../support/bridgeClient';
import { pooledChains } from '../../support/pooledNodes';
import { sharedTestSimulator } from '../../support/sharedTestSimulator';
import { startTestSimulator } from '../../support/startTestSimulator';
import { startVerifyingWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { putWebhook, quoteWithApiKey } from '../../support/webhookFlows';

/** A real `ws` client that keeps every message it gets. */
class StreamClient {
  readonly messages: any[] = [];
  private waiters: Array<{ test: (m: any) => boolean; resolve: (m: any) => void }> = [];
  readonly closed: Promise<number>;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      this.messages.push(message);
      for (const waiter of this.waiters.filter((w) => w.test(message))) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    });
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  }

  static async open(url: string): Promise<StreamClient> {
    const socket = new WebSocket(url);
    const client = new StreamClient(socket);
    const ready = client.next((m) => m.type === 'connection');
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await ready;
    return client;
  }

  next(test: (message: any) => boolean): Promise<any> {
    const seen = this.messages.find(test);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  async request(message: unknown, answerType: string): Promise<any> {
    const count = this.messages.length;
    const answer = new Promise((resolve) => this.waiters.push({ test: (m) => m.type === answerType && this.messages.length > count, resolve }));
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    return answer;
  }

  updates(): any[] {
    return this.messages.filter((m) => m.event === 'request.status.updated' && m.type === undefined);
  }
}

/** SPEC §6.4: the websocket status stream, fed by the same committed status events as webhooks. */
describe('websocket status stream and webhooks following a real bridge', () => {
  let sim: RunningSimulator | undefined;
  let receiver: WebhookReceiver;
  let wsUrl: string;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
    wsUrl = `${sim.baseUrl.replace('http://', 'ws://')}/ws`;
    receiver = await startVerifyingWebhookReceiver(sim.apiKey);
  });
  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
  });

  it('greets, subscribes, and streams every status change of the bridge as the webhook receiver gets them', async () => {
    const running = sim!;
    await putWebhook(running, running.apiKey, { url: receiver.url });
    const byKey = await StreamClient.open(`${wsUrl}?apiKey=${running.apiKey}`);
    expect(byKey.messages[0]).toEqual({ type: 'connection', status: 'ready', data: { id: expect.any(String) } });
    expect(await byKey.request({ type: 'subscribe', event: 'request.status.updated' }, 'subscribe')).toEqual({
      type: 'subscribe',
      status: 'success',
      data: { event: 'request.status.updated', filters: {} },
    });

    const quote = await quoteWithApiKey(running, running.apiKey);
    const requestId = quote.steps[0]!.requestId as string;
    const byId = await StreamClient.open(wsUrl);
    expect(await byId.request({ type: 'subscribe', event: 'request.status.updated', filters: { id: requestId } }, 'subscribe')).toEqual({
      type: 'subscribe',
      status: 'success',
      data: { event: 'request.status.updated', filters: { id: requestId } },
    });

    await executeQuoteSteps(running, running.accounts[0]!.privateKey as Hex, quote);
    const settled = await waitForSettledStatus(running.baseUrl, requestId);
    expect(settled.status).toBe('success');
    await byKey.next((m) => m.data?.status === 'success');
    await byId.next((m) => m.data?.status === 'success');

    expect(byKey.updates().map((m) => m.data.status)).toEqual(['waiting', 'pending', 'submitted', 'success']);
    expect(byId.updates().map((m) => m.data.status)).toEqual(['pending', 'submitted', 'success']);
    const last = byId.updates().at(-1);
    expect(last).toEqual({
      event: 'request.status.updated',
      data: {
        status: 'success',
        inTxHashes: settled.inTxHashes,
        txHashes: settled.txHashes,
        updatedAt: settled.updatedAt,
        originChainId: settled.originChainId,
        destinationChainId: settled.destinationChainId,
        requestId,
      },
      publishedAt: expect.any(Number),
    });
    expect(last.publishedAt).toBeGreaterThanOrEqual(settled.updatedAt);

    // the same four events reached the webhook, each signed with the key
    await receiver.waitForMessage(4);
    await running.control.webhooks.idle();
    const webhooks = receiver.received.map((r) => JSON.parse(r.body));
    expect(webhooks.map((w) => w.data.status).sort()).toEqual(['pending', 'submitted', 'success', 'waiting']);
    expect(receiver.received.every((r) => r.answeredWith === 200)).toBe(true);
    expect(webhooks.find((w) => w.data.status === 'success')).toEqual({
      event: 'request.status.updated',
      timestamp: settled.updatedAt,
      data: { ...settled, requestId, referrer: null, depositAddress: null },
    });

    // unsubscribed, a client hears nothing more about the request
    expect(await byId.request({ type: 'unsubscribe', event: 'request.status.updated', filters: { id: requestId } }, 'unsubscribe')).toMatchObject({ status: 'success' });
    byKey.socket.close();
    byId.socket.close();
  });

  it('answers malformed messages with an error and keeps the socket open; refuses unknown keys and paths', async () => {
    const client = await StreamClient.open(wsUrl);
    for (const bad of [
      'not json',
      { type: 'subscribe' },
      { type: 'publish', event: 'request.status.updated', filters: { id: `0x${'1'.repeat(64)}` } },
      { type: 'subscribe', event: 'request.created', filters: { id: `0x${'1'.repeat(64)}` } },
      { type: 'subscribe', event: 'request.status.updated', filters: { id: '0x12' } },
      { type: 'subscribe', event: 'request.status.updated' }, // all requests of a key, but no key given
    ]) {
      const answer = await client.request(bad, 'error');
      expect(answer).toMatchObject({ type: 'error', status: 'error', data: { message: expect.any(String) } });
    }
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    expect(await client.request({ type: 'subscribe', event: 'request.status.updated', filters: { id: `0x${'1'.repeat(64)}` } }, 'subscribe')).toMatchObject({ status: 'success' });
    client.socket.close();

    const refused = (url: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url);
        socket.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          socket.terminate();
        });
        socket.on('error', () => undefined);
      });
    expect(await refused(`${wsUrl}?apiKey=intentsim_unknown`)).toBe(401);
    expect(await refused(`${wsUrl.replace('/ws', '/other')}`)).toBe(404);
  });

  it(`holds at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions per connection: the next one is refused with an error, re-subscribing or unsubscribing still works`, async () => {
    const client = await StreamClient.open(wsUrl);
    const subscribe = (n: number, type = 'subscribe') =>
      client.request({ type, event: 'request.status.updated', filters: { id: `0x${n.toString(16).padStart(64, '0')}` } }, type === 'subscribe' ? 'subscribe' : 'unsubscribe');
    for (let n = 1; n <= MAX_SUBSCRIPTIONS_PER_CONNECTION; n++) expect(await subscribe(n)).toMatchObject({ status: 'success' });
    const refused = await client.request({ type: 'subscribe', event: 'request.status.updated', filters: { id: `0x${'f'.repeat(64)}` } }, 'error');
    expect(refused.data.message).toMatch(/at most 100 subscriptions/);
    expect(await subscribe(1)).toMatchObject({ status: 'success' }); // already held: not a new one
    expect(await subscribe(2, 'unsubscribe')).toMatchObject({ status: 'success' });
    expect(await subscribe(MAX_SUBSCRIPTIONS_PER_CONNECTION + 1)).toMatchObject({ status: 'success' });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    client.socket.close();
  });

});

/** Its own simulator (one chain is enough): the worker's shared one is not stopped. */
describe('websocket status stream when the simulator stops', () => {
  let sim: RunningSimulator | undefined;
  afterAll(async () => {
    await sim?.stop();
  });

  it('closes open sockets when the simulator stops', async () => {
    sim = await startTestSimulator({ chains: pooledChains([8453]) });
    const client = await StreamClient.open(`${sim.baseUrl.replace('http://', 'ws://')}/ws`);
    await sim.stop();
    sim = undefined;
    expect(await client.closed).toBe(1001);
  });
});
