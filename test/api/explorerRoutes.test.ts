import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import type { Hex } from 'viem';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { startWebhookReceiver } from '../support/webhookReceiver';
import { deliveriesOf, putWebhook, quoteWithApiKey } from '../support/webhookFlows';

// the explorer's page, its bundle, and the read-only JSON under /admin/explorer/ (docs/explorer.md ("Explorer"))
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await sharedTestSimulator();
});
afterAll(async () => {
  await sim?.stop();
});

describe('the explorer routes', () => {
  it('serves one HTML page at / and on every explorer path, with its script and styles from the simulator (no CDN)', async () => {
    for (const path of ['/', '/explorer', '/explorer/requests/0x12', '/explorer/1/tx/0xab', '/explorer/timeline-file']) {
      const response = await fetch(`${sim.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain('<script type="module" src="/explorer/assets/explorer.js">');
      expect(html).not.toMatch(/https?:\/\//);
    }
    const script = await fetch(`${sim.baseUrl}/explorer/assets/explorer.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(10_000);
    const styles = await fetch(`${sim.baseUrl}/explorer/assets/explorer.css`);
    expect(styles.headers.get('content-type')).toMatch(/^text\/css/);
    // an unknown asset, and API paths, are not the page
    expect((await fetch(`${sim.baseUrl}/explorer/assets/nothing.js`)).status).toBe(404);
    expect((await getJson(`${sim.baseUrl}/no-such-route`)).body.errorCode).toBe('ROUTE_NOT_FOUND');
  });

  it('hands the default API key to a loopback page', async () => {
    expect((await getJson(`${sim.baseUrl}/admin/explorer/session`)).body).toEqual({ apiKey: sim.apiKey });
  });

  it('tells a request\'s status changes with their times and the quote it came from; 400 for a malformed id, 404 for an unknown one', async () => {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[4]!.address));
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as string;
    const details = await getJson(`${sim.baseUrl}/admin/explorer/requests/${requestId}`);
    expect(details.status).toBe(200);
    const [created] = sim.control.requests.eventsFor(requestId);
    expect(details.body).toMatchObject({
      requestId,
      statusChanges: [{ from: null, to: 'waiting', at: created!.at, inTxHashes: [], txHashes: [] }],
      quote: { requestType: 'Bridge', originChainId: 1, destinationChainId: 8453, amounts: { amountIn: '10000000000000000' } },
      webhookDeliveries: [],
    });
    expect((await getJson(`${sim.baseUrl}/admin/explorer/requests/0x12`)).status).toBe(400);
    const unknown = await getJson(`${sim.baseUrl}/admin/explorer/requests/0x${'0'.repeat(64)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe('REQUEST_NOT_FOUND');
  });

  // chain block times are whole seconds and the virtual clock is milliseconds: a refund mined in the
  // quote's second has a block time before the quote, and a timeline sorted by time listed it first
  it('orders a refunded bridge\'s timeline as things happened: quote, deposit, statuses, refund, each webhook attempt after the change it reports', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expect((await putWebhook(sim, sim.apiKey, { url: receiver.url })).status).toBe(200);
      // the service's test hook refunds the request once its deposit is indexed
      const quote = await quoteWithApiKey(sim, sim.apiKey, { user: sim.accounts[6]!.address, referrer: 'debug-force-refund' });
      const requestId = quote.steps[0]!.requestId!;
      await executeQuoteSteps(sim, sim.accounts[6]!.privateKey as Hex, quote);
      expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('refund');
      const statuses = sim.control.requests.eventsFor(requestId).map((event) => event.toStatus);
      await expect.poll(async () => (await deliveriesOf(sim, requestId)).filter((delivery) => delivery.state === 'delivered').length).toBe(statuses.length);

      const { body } = await getJson(`${sim.baseUrl}/admin/explorer/requests/${requestId}`);
      const record = (await requestJson(`${sim.baseUrl}/requests/v3?id=${requestId}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } })).body.requests[0];
      const statusOfSeq = new Map<number, string>(body.statusChanges.map((change: { seq: number; to: string }) => [change.seq, change.to]));
      const deliveryStatus = new Map<number, string>(body.webhookDeliveries.map((delivery: { id: number; status: string }) => [delivery.id, delivery.status]));
      // each key named by what it is: quote, status <to>, tx <type>, webhook <status it reports>
      const named = (body.timeline as string[]).map((key) => {
        const [kind, a, b] = key.split(':');
        if (kind === 'status') return `status ${statusOfSeq.get(Number(a))}`;
        if (kind === 'tx') return `tx ${(a === 'in' ? record.data.inTxs : record.data.outTxs)[Number(b)].type}`;
        if (kind === 'webhook') return `webhook ${deliveryStatus.get(Number(a))}`;
        return kind!;
      });
      expect(named.filter((item) => !item.startsWith('webhook'))).toEqual(['quote', 'status waiting', 'tx deposit', ...statuses.slice(1, -1).map((status) => `status ${status}`), 'tx refund', 'status refund']);
      expect(named.filter((item) => item.startsWith('webhook'))).toHaveLength(statuses.length);
      for (const status of statuses) expect(named.indexOf(`webhook ${status}`)).toBeGreaterThan(named.indexOf(`status ${status}`));
    } finally {
      await putWebhook(sim, sim.apiKey, { url: receiver.url, enabled: false });
      await receiver.close();
    }
  });

  it('lists the known contracts\' ABIs and labels the simulator\'s addresses on each chain', async () => {
    const { body } = await getJson(`${sim.baseUrl}/admin/explorer/contracts`);
    const depository = body.contracts.find((contract: { name: string }) => contract.name === 'Depository');
    expect(depository.abi.some((item: { type: string; name: string }) => item.type === 'function' && item.name === 'depositNative')).toBe(true);
    expect(depository.abi.every((item: { type: string }) => item.type === 'function' || item.type === 'event')).toBe(true);
    for (const chain of sim.chains) {
      const labels = body.labels[String(chain.id)];
      expect(labels[evmChainOf(sim, chain.id).contractAddresses.depository.toLowerCase()]).toBe('depository');
      expect(labels[sim.control.solverAddress.toLowerCase()]).toBe('solver wallet');
    }
  });
});
