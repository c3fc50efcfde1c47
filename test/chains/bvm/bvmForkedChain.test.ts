import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { BVM_CHAIN } from '../../../fixtures/chains';
import { BvmChain } from '../../../src/chains/bvm/BvmChain';
import { startBvmNode, type StartedBvmNode } from '../../../src/nodes/bvm/startBvmNode';
import { signP2wpkhTransaction, p2wpkhFee } from '../../../src/nodes/bvm/bvmTransactions';
import { ConfigurationError } from '../../../src/errors/IntentsimError';
import { inMemoryChainContext } from '../../support/inMemoryChainContext';
import { closedPortUrl } from '../../support/closedPortUrl';

// chain kinds: bvm
// The Bitcoin adapter over a forked node (issue 35, part 3): a quote's PSBT spends a user's output
// that exists only on the upstream (a second embedded node), the user's wallet signs it, it is mined
// here, and the upstream is unchanged.
const ECPair = ECPairFactory(ecc);
const REGTEST = bitcoin.networks.regtest;
const holder = ECPair.fromPrivateKey(Buffer.alloc(32, 11), { network: REGTEST });
const holderScript = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(holder.publicKey), network: REGTEST }).output!;
const holderAddress = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(holder.publicKey), network: REGTEST }).address!;
const FUNDED = 30_000_000n;

let upstream: StartedBvmNode;
let chain: BvmChain;
let fundingTxid: string;

beforeAll(async () => {
  upstream = await startBvmNode({ accountCount: 2 });
  // upstream only: a test account pays the holder, mined there
  const payer = upstream.keys.testAccounts[0]!;
  const coin = upstream.ledger.coinsOf(payer.script, false)[0]!;
  const payment = signP2wpkhTransaction([{ coin, key: payer }], [
    { script: holderScript, value: FUNDED },
    { script: payer.script, value: coin.value - FUNDED - p2wpkhFee(1, 2) },
  ]);
  fundingTxid = upstream.ledger.submit(payment.toHex()).txid;
  upstream.ledger.mine(1, upstream.keys.miner.script);

  chain = new BvmChain({ ...inMemoryChainContext(), metadata: BVM_CHAIN, host: '127.0.0.1', blockTimeSeconds: 0, depositConfirmations: {}, forks: { [BVM_CHAIN.id]: { url: upstream.esploraUrl } } });
  await chain.start();
});

afterAll(async () => {
  await chain?.stop();
  await upstream?.stop();
});

describe('a forked Bitcoin chain', () => {
  it('says what it forks and that it reads the current state, unpinned', () => {
    expect(chain.describe().fork).toEqual({ url: upstream.esploraUrl, note: expect.stringContaining('not pinned') });
  });

  it("pays a quote's deposit from an output that exists only upstream; the upstream is unchanged", async () => {
    const upstreamTip = upstream.ledger.tip!.hash;
    expect(await chain.balanceOf(holderAddress, chain.nativeCurrency())).toBe(FUNDED);
    const [step] = await chain.buildDepositSteps({ requestId: `0x${'11'.repeat(32)}`, user: holderAddress, currency: chain.nativeCurrency(), amount: 10_000_000n });
    const item = step!.items[0]!;
    const psbt = bitcoin.Psbt.fromHex((item.data as { psbt: string }).psbt, { network: REGTEST });
    expect(psbt.txInputs.map((input) => Buffer.from(input.hash).reverse().toString('hex'))).toEqual([fundingTxid]);

    const sent = await chain.userWallet.sendUserTransaction(holder.toWIF(), item as Record<string, unknown>);
    chain.ledger.mine(1, chain.keys.miner.script);
    expect(chain.ledger.confirmations(sent.txHash)).toBe(1);
    expect(await chain.balanceOf(step!.depositAddress!, chain.nativeCurrency())).toBe(10_000_000n);
    expect(await chain.balanceOf(holderAddress, chain.nativeCurrency())).toBeLessThan(FUNDED - 10_000_000n);

    expect(upstream.ledger.tip!.hash).toBe(upstreamTip);
    expect(upstream.ledger.coin(fundingTxid, 0)).toBeDefined();
    expect(upstream.ledger.transaction(sent.txHash)).toBeUndefined();
  });

  it('refuses to start, in one line naming the chain and the upstream, when the upstream does not answer', async () => {
    const dead = await closedPortUrl();
    const refused = new BvmChain({ ...inMemoryChainContext(), metadata: BVM_CHAIN, host: '127.0.0.1', blockTimeSeconds: 0, depositConfirmations: {}, forks: { [BVM_CHAIN.id]: { url: dead } } });
    const started = performance.now();
    const error = await refused.start().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await refused.stop();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(new RegExp(`^chain ${BVM_CHAIN.id}: the fork's upstream Esplora ${dead} could not be read \\(GET /blocks/tip/height\\): fetch failed \\(ECONNREFUSED\\)$`));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
