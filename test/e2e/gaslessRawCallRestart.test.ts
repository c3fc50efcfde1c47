// covers: endpoint:POST /execute, transition:depositing->success
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, type Address } from 'viem';
import { pausableBadgeArtifact } from '../../fixtures/contracts/artifacts.generated';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';
import { getJson, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { deployFixture } from '../support/callReverts';

const CHAIN = 1;

/** SPEC §1.6: a raw call's own request (POST /execute without requestId) is kept like any other on `--db`. */
describe('a gasless raw call\'s request across a restart on the same database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-raw-call-restart-'));
  const options: StartSimulatorOptions = { port: 0, dbPath: join(dir, 'sim.db'), env: {}, log: () => undefined, chains: [{ id: CHAIN, resetOnStart: false }] };
  let sim: RunningSimulator | undefined;

  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function relayClaim(running: RunningSimulator, badge: Address, claimer: Address): Promise<string> {
    const data = encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName: 'claim', args: [claimer] });
    const accepted = await requestJson(`${running.baseUrl}/execute`, {
      method: 'POST',
      body: { executionKind: 'rawCalls', data: { chainId: CHAIN, to: badge, data, value: '0' }, executionOptions: { referrer: 'restart-test', subsidizeFees: false } },
    });
    expect(accepted.status).toBe(200);
    return accepted.body.requestId as string;
  }

  async function listed(running: RunningSimulator, requestId: string) {
    return (await requestJson(`${running.baseUrl}/requests/v3?id=${requestId}`, { method: 'GET', headers: { 'x-api-key': running.apiKey } })).body.requests;
  }

  it('answers the same status, record and events after the restart, and numbers the next call\'s request after it', async () => {
    sim = await startSimulator(options);
    const issuer = sim.accounts[1]!;
    const badge = await deployFixture(sim, CHAIN, issuer.privateKey, 'PausableBadge', [issuer.address as Address]);
    const requestId = await relayClaim(sim, badge, sim.accounts[2]!.address as Address);
    const settled = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(settled).toMatchObject({ status: 'success', inTxHashes: [expect.stringMatching(/^0x[0-9a-f]{64}$/)] });
    const record = await listed(sim, requestId);
    expect(record).toMatchObject([{ id: requestId, requestType: 'Call', status: 'success' }]);
    expect(sim.control.requests.get(requestId)!.quote.referrer).toBe('restart-test');
    const events = sim.control.requests.eventsFor(requestId).map((event) => event.toStatus);
    expect(events).toEqual(['waiting', 'depositing', 'success']);
    await sim.stop();

    sim = await startSimulator(options);
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body).toEqual(settled);
    expect(await listed(sim, requestId)).toEqual(record);
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(events);
    // the same call again is a new request: the relayed calls' sequence survived the restart
    const next = await relayClaim(sim, badge, sim.accounts[2]!.address as Address);
    expect(next).not.toBe(requestId);
    expect((await waitForSettledStatus(sim.baseUrl, next)).status).toBe('success');
  });
});
