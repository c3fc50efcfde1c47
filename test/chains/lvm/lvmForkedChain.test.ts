import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LVM_CHAIN } from '../../../fixtures/chains';
import { LvmChain } from '../../../src/chains/lvm/LvmChain';
import { startLvmNode, type StartedLvmNode } from '../../../src/nodes/lvm/startLvmNode';
import { ConfigurationError } from '../../../src/errors/IntentsimError';
import { inMemoryChainContext } from '../../support/inMemoryChainContext';
import { closedPortUrl } from '../../support/closedPortUrl';

// chain kinds: lvm
// The Lighter adapter over a forked exchange (issue 35, part 4): a quote's withdrawal is paid from a
// sub-account that exists only on the upstream (a second embedded exchange), and the upstream is unchanged.
let upstream: StartedLvmNode;
let chain: LvmChain;
let sub: { index: number; apiKey: string };

beforeAll(async () => {
  upstream = await startLvmNode({ accountCount: 2 });
  const [alice] = upstream.fundedAccounts;
  const created = await fetch(`${upstream.rpcUrl}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': alice!.privateKey } });
  const { account, api_key } = (await created.json()) as { account: { index: number }; api_key: string };
  sub = { index: account.index, apiKey: api_key };
  upstream.ledger.transfer({ fromAccountIndex: Number(alice!.address), toAccountIndex: sub.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 5_000_000n, usdcFee: 10_000n });

  chain = new LvmChain({ ...inMemoryChainContext(), metadata: LVM_CHAIN, host: '127.0.0.1', forks: { [LVM_CHAIN.id]: { url: upstream.rpcUrl } } });
  await chain.start();
});

afterAll(async () => {
  await chain?.stop();
  await upstream?.stop();
});

describe('a forked Lighter chain', () => {
  it('says what it forks and that it reads the current state, unpinned', () => {
    expect(chain.describe().fork).toEqual({ url: upstream.rpcUrl, note: expect.stringContaining('not pinned') });
  });

  it("pays a quote's withdrawal from an account that exists only upstream; the upstream is unchanged", async () => {
    const upstreamHeight = upstream.ledger.height;
    const user = String(sub.index);
    expect(chain.ledger.account(sub.index)).toBeUndefined();
    expect(chain.isValidAddress(user)).toBe(true);
    expect(await chain.balanceOf(user, chain.nativeCurrency())).toBe(5_000_000n);
    const [step] = await chain.buildDepositSteps({ requestId: `0x${'22'.repeat(32)}`, user, currency: chain.nativeCurrency(), amount: 1_000_000n });
    const sent = await chain.userWallet.sendUserTransaction(sub.apiKey, step!.items[0]! as Record<string, unknown>);
    expect(chain.ledger.transaction(sent.txHash)).toMatchObject({ fromAccountIndex: sub.index, amount: 1_000_000n });
    expect(await chain.balanceOf(user, chain.nativeCurrency())).toBe(5_000_000n - 1_000_000n - 10_000n);

    expect(upstream.ledger.height).toBe(upstreamHeight);
    expect(upstream.ledger.balance(sub.index, 3, 0)).toBe(5_000_000n);
  });

  it('refuses to start, in one line naming the chain and the upstream, when the upstream does not answer', async () => {
    const dead = await closedPortUrl();
    const refused = new LvmChain({ ...inMemoryChainContext(), metadata: LVM_CHAIN, host: '127.0.0.1', forks: { [LVM_CHAIN.id]: { url: dead } } });
    const started = performance.now();
    const error = await refused.start().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await refused.stop();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(new RegExp(`^chain ${LVM_CHAIN.id}: the fork's upstream exchange API ${dead} could not be read \\(GET /api/v1/currentHeight\\): fetch failed \\(ECONNREFUSED\\)$`));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
