import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { SVM_CHAIN } from '../../fixtures/chains';
import { ScenarioTimeline } from '../../src/scenario/ScenarioTimeline';
import { executeQuoteSteps, getJson, nativeBridgeBody, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { chromiumExecutable } from '../support/chromiumExecutable';
import { pooledChains } from '../support/pooledNodes';
import { startTestSimulator } from '../support/startTestSimulator';
import { startWebhookReceiver } from '../support/webhookReceiver';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:GET /chains, endpoint:GET /requests/v3, status:waiting, status:success, status:failure, failReason:DEPOSIT_REORGED
// chain kinds: evm

/** Screenshots of each view, kept as test artifacts (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'explorer');
const executablePath = chromiumExecutable();
if (!executablePath) {
  console.warn('explorer browser test skipped: no Chromium found (set INTENTSIM_CHROMIUM, or `apt-get update && apt-get install -y chromium`; docs/explorer.md ("Explorer"))');
}

describe.skipIf(!executablePath)('the explorer in headless Chromium', () => {
  let sim: RunningSimulator;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // the pooled EVM chains and the SVM chain (in-process)
    sim = await startTestSimulator({ chains: [...pooledChains(), { id: SVM_CHAIN.id }] });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
  });

  const shoot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const rowStatus = (requestId: string, status: string) => `tr[data-request-id="${requestId}"] [data-testid="request-status"]:text-is("${status}")`;

  it('shows a bridge in the list live, then its timeline, then its deposit on the chain\'s explorer page', async () => {
    await page.goto(`${sim.baseUrl}/`);
    await page.waitForSelector('[data-testid="request-rows"]');
    await page.waitForSelector('[data-testid="connection"]:text-is("live")');
    // a reload would drop this marker
    await page.evaluate(() => ((globalThis as unknown as { explorerTestMarker: string }).explorerTestMarker = 'kept'));

    const user = sim.accounts[1]!;
    const quote = await requestJson(`${sim.baseUrl}/quote/v2`, { method: 'POST', body: nativeBridgeBody(user.address), headers: { 'x-api-key': sim.apiKey } });
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as string;

    await page.waitForSelector(rowStatus(requestId, 'waiting'));
    const [depositHash] = await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    await page.waitForSelector(rowStatus(requestId, 'success'));
    const row = page.locator(`tr[data-request-id="${requestId}"]`);
    expect(await row.locator('td').nth(1).textContent()).toBe('Bridge');
    expect(await row.locator('td').nth(2).textContent()).toBe('Ethereum → Base');
    expect(await row.locator('td').nth(3).textContent()).toMatch(/^0\.01 ETH → 0\.\d+ ETH$/);
    expect(await page.evaluate(() => (globalThis as unknown as { explorerTestMarker?: string }).explorerTestMarker)).toBe('kept');
    await shoot('request-list');

    // the filters are /requests/v3's: a status that does not match hides the request
    await page.selectOption('[data-testid="filter-status"]', 'refund');
    await page.waitForSelector('td.empty');
    expect(new URL(page.url()).search).toBe('?status=refund');
    await page.selectOption('[data-testid="filter-status"]', 'success');
    await page.waitForSelector(rowStatus(requestId, 'success'));

    await page.click(`tr[data-request-id="${requestId}"] [data-testid="request-link"]`);
    await page.waitForSelector('[data-testid="request-detail-status"]:text-is("success")');
    expect(await page.textContent('[data-testid="request-id"]')).toBe(requestId);
    const changes = page.locator('[data-testid="timeline"] [data-testid="timeline-status"]');
    expect(await changes.locator('.what').allTextContents()).toEqual(['status (new) → waiting', 'status waiting → pending', 'status pending → submitted', 'status submitted → success']);
    // each with the time the store recorded it
    const recorded = sim.control.requests.eventsFor(requestId).map((event) => new Date(event.at).toISOString().replace('T', ' ').replace('Z', ' UTC'));
    expect(await changes.locator('.at').allTextContents()).toEqual(recorded);
    expect(await page.locator('[data-testid="timeline-quote"]').count()).toBe(1);
    expect(await page.textContent('[data-testid="quote"]')).toContain('"requestType": "Bridge"');
    await shoot('request-timeline');

    // the deposit link is built from /chains as an integrator builds it: explorerUrl + explorerPaths.transaction
    const { body: chainList } = await getJson(`${sim.baseUrl}/chains`);
    const origin = chainList.chains.find((chain: { id: number }) => chain.id === 1);
    const expectedHref = origin.explorerUrl + origin.explorerPaths.transaction.replace('{TX_HASH}', depositHash);
    const depositLink = page.locator('[data-testid="tx-link-deposit"]');
    expect(await depositLink.getAttribute('href')).toBe(expectedHref);
    await depositLink.click();
    await page.waitForSelector('[data-testid="tx-status"]:text-is("success")');
    expect(page.url()).toBe(expectedHref);
    expect(await page.textContent('[data-testid="transaction-value"]')).toBe(depositHash);
    expect(await page.textContent('[data-testid="decoded-call"]')).toMatch(/^Depository\./);
    await shoot('transaction');

    // the same page opens on its own (a fresh load of the link), and so do the address and block pages
    await page.goto(expectedHref);
    await page.waitForSelector('[data-testid="tx-status"]:text-is("success")');
    expect(await page.textContent('[data-testid="transaction-value"]')).toBe(depositHash);
    await page.goto(origin.explorerUrl + origin.explorerPaths.address.replace('{ADDRESS}', user.address));
    await page.waitForSelector('[data-testid="native-balance"]');
    expect(await page.textContent('[data-testid="native-balance"]')).toMatch(/ ETH$/);
    expect(await page.locator(`a[href$="${depositHash}"]`).count()).toBeGreaterThan(0);
    await shoot('address');
  });

  it('shows a deposit reorged out after its fill: failure DEPOSIT_REORGED in the list, a reorg marker and every webhook attempt on the timeline', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expect((await requestJson(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`, { method: 'PUT', body: { url: receiver.url } })).status).toBe(200);
      const user = sim.accounts[6]!;
      const quote = await requestJson(`${sim.baseUrl}/quote/v2`, {
        method: 'POST',
        body: nativeBridgeBody(user.address, { originChainId: 42161, destinationChainId: 1, amount: '40000000000000000' }),
        headers: { 'x-api-key': sim.apiKey },
      });
      const requestId = quote.body.steps[0].requestId as string;
      await page.goto(`${sim.baseUrl}/`);
      await page.waitForSelector(rowStatus(requestId, 'waiting'));
      await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
      await evmChainOf(sim, 42161).syncNow();
      expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
      await page.waitForSelector(rowStatus(requestId, 'success'));

      // the adapter's cheat call (`anvil_reorg`): the deposit's block is replaced
      await sim.control.chain(42161).reorg(1);
      await sim.control.solver.idle();
      await sim.control.webhooks.idle();
      await page.waitForSelector(rowStatus(requestId, 'failure'));
      expect(await page.textContent(`tr[data-request-id="${requestId}"] [data-testid="request-fail-reason"]`)).toBe('DEPOSIT_REORGED');
      await shoot('request-list-with-reorg');

      await page.click(`tr[data-request-id="${requestId}"] [data-testid="request-link"]`);
      await page.waitForSelector('[data-testid="request-detail-status"]:text-is("failure")');
      expect(await page.textContent('[data-testid="timeline-fail-reason"]')).toBe('DEPOSIT_REORGED');
      const reorg = await page.locator('[data-testid="timeline-reorg"] .what').allTextContents();
      expect(reorg).toHaveLength(1);
      expect(reorg[0]).toMatch(/^reorg: .*action fill, failReason DEPOSIT_REORGED/);
      const deliveries = sim.control.webhooks.store.listDeliveries({ requestId });
      expect(deliveries.map((delivery) => delivery.requestStatus)).toEqual(['waiting', 'pending', 'submitted', 'success', 'failure']);
      const webhookLines = await page.locator('[data-testid="timeline-webhook"] .what').allTextContents();
      expect(webhookLines).toEqual(deliveries.map((delivery) => `webhook ${delivery.requestStatus} → ${receiver.url}, attempt 1: HTTP 200`));
      await shoot('request-timeline-with-reorg');
    } finally {
      await fetch(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`, { method: 'DELETE' });
      await receiver.close();
    }
  });

  it('opens a scenario timeline file in the timeline view', async () => {
    const timeline = new ScenarioTimeline(0);
    timeline.add(0, 'scenario native bridge (seed 1) on chains 1, 8453');
    timeline.add(1500, 'step 1 (line 4) quote: bridge');
    timeline.add(2000, 'bridge  (new) → waiting');
    timeline.add(3000, 'bridge  waiting → pending; inTx deposit 0xabc on 1');
    timeline.add(3500, 'bridge  webhook pending attempt 1 → 200');
    const file = join(ARTIFACTS, 'native-bridge.timeline');
    writeFileSync(file, timeline.render(['scenario: native bridge']));

    await page.goto(`${sim.baseUrl}/explorer/timeline-file`);
    await page.setInputFiles('[data-testid="timeline-file-input"]', file);
    await page.waitForSelector('[data-testid="timeline-file-output"] [data-testid="timeline"]');
    const entries = await page.locator('[data-testid="timeline"] li').allTextContents();
    expect(entries).toHaveLength(5);
    expect(entries[3]).toBe('+3.000sbridge waiting → pending; inTx deposit 0xabc on 1');
    expect(await page.locator('[data-testid="timeline-webhook"]').count()).toBe(1);
    await shoot('timeline-file');
  });

  it('opens an SVM transaction from its /tx/ link, and the address it paid', async () => {
    const { body: chainList } = await getJson(`${sim.baseUrl}/chains`);
    const svm = chainList.chains.find((chain: { id: number }) => chain.id === SVM_CHAIN.id);
    expect(svm.explorerPaths.transaction).toBe('/tx/{TX_HASH}');
    const recipient = sim.chains.find((chain) => chain.id === SVM_CHAIN.id)!.accounts![3]!.address;
    const rpc = async (method: string, params: unknown[]) => {
      const response = await fetch(svm.httpRpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      return ((await response.json()) as { result: any }).result;
    };
    const signature = (await rpc('requestAirdrop', [recipient, 1_000_000_000])) as string;

    const link = svm.explorerUrl + svm.explorerPaths.transaction.replace('{TX_HASH}', signature);
    await page.goto(link);
    await page.waitForSelector('[data-testid="tx-status"]:text-is("success")');
    expect(await page.textContent('[data-testid="transaction-value"]')).toBe(signature);
    expect(await page.textContent('main')).toContain('+1 SOL');
    await shoot('svm-transaction');

    await page.click(`main a[title="${recipient}"]`);
    await page.waitForSelector('[data-testid="native-balance"]');
    expect(await page.textContent('[data-testid="native-balance"]')).toMatch(/ SOL$/);
    expect(await page.locator(`a[title="${signature}"]`).count()).toBe(1);
    await shoot('svm-address');
  });
});
