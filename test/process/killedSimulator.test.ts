import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Address } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { cliProcessGroups, payDepositStep, quoteNativeBridge, waitUntilGone, waitUntilSettled, type CliReady } from '../support/cliProcess';

/**
 * Durable chains (issue: kill -9 anywhere loses nothing): the whole process group — the simulator
 * and its Anvil processes — is killed with SIGKILL, so no chain saves its state; the next start on
 * the same database mines the lost blocks again from the chain journal. The record and the chain
 * agree afterwards: the request is still `success`, the recipient still has what it was paid.
 */
const dir = mkdtempSync(join(tmpdir(), 'intentsim-killed-'));
const groups = cliProcessGroups();
afterAll(() => {
  groups.killAll();
  rmSync(dir, { recursive: true, force: true });
});

const startInOwnGroup = () => groups.start(['--chains', '1,8453', '--db', join(dir, 'sim.db')]);

async function bridge(ready: CliReady, accountIndex: number, recipient: Address) {
  const account = ready.accounts[accountIndex]!;
  const step = await quoteNativeBridge(ready, account.address, recipient);
  await payDepositStep(ready, account.privateKey, step);
  return { requestId: step.requestId, status: (await waitUntilSettled(ready.baseUrl, step.requestId)).status };
}

describe('SIGKILL of the whole process group', () => {
  it('loses no block: the next start on the same database has the fill, the payment and the status, and fills again', async () => {
    const recipient = '0x00000000000000000000000000000000000ddd01' as Address;
    const first = await startInOwnGroup();
    const settled = await bridge(first.ready, 1, recipient);
    expect(settled.status).toBe('success');
    const destinationRpc = first.ready.chains.find((chain) => chain.id === 8453)!.rpcUrl;
    const paid = await createPublicClient({ transport: http(destinationRpc) }).getBalance({ address: recipient });
    expect(paid).toBeGreaterThan(0n);

    process.kill(-first.top.pid!, 'SIGKILL');
    await waitUntilGone([first.top.pid!], 10_000);

    const second = await startInOwnGroup();
    const status = await waitUntilSettled(second.ready.baseUrl, settled.requestId);
    expect(status.status).toBe('success');
    const destination = createPublicClient({ transport: http(second.ready.chains.find((chain) => chain.id === 8453)!.rpcUrl) });
    expect(await destination.getBalance({ address: recipient })).toBe(paid);
    const fill = await destination.getTransactionReceipt({ hash: status.txHashes[0]! });
    expect(fill.status).toBe('success');

    // the solver's nonces are in step with the chain: the next request fills too
    expect((await bridge(second.ready, 2, recipient)).status).toBe('success');
    expect(await destination.getBalance({ address: recipient })).toBeGreaterThan(paid);
    process.kill(-second.top.pid!, 'SIGTERM');
  }, 120_000);
});
