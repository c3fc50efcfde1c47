import { LAMPORTS_PER_SOL, type Connection, type Keypair } from '@solana/web3.js';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { parseEther, zeroAddress, type Hex } from 'viem';
import { expect } from 'vitest';
import { BvmChain } from '../../src/chains/bvm/BvmChain';
import { LvmChain } from '../../src/chains/lvm/LvmChain';
import { SvmChain } from '../../src/chains/svm/SvmChain';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/nodes/bvm/bvmTransactions';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, postJson, usdcOf, waitForSettledStatus } from './bridgeClient';
import { BTC_ADDRESS as BTC, BVM_CHAIN_ID as BVM, bvmRpc, signDepositStep } from './bvmClient';
import { chainAdapterOf } from './chainAdapterOf';
import { solanaConnection } from './solanaConnections';
import { airdroppedKeypair, sendSvmStepItem, SOL, SVM_CHAIN_ID as SVM, type SvmStepItemData } from './svmClient';

/**
 * Requests made on an upstream simulator whose chains include chain 1 and the Solana, Bitcoin or
 * Lighter chain each names, for the tests that replay them (`intentsim replay`, `scenario from-record --fork`):
 * each settled upstream with an outcome the forking simulator does not make itself.
 */

const EVM = 1;
const LVM = 3586256;
/** USDC (6 decimals) a Lighter sub-account holds only upstream. */
const SUB_COLLATERAL = 50_000_000n;
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
/** A Bitcoin key neither simulator's mnemonic derives: its output is paid upstream only. */
export const bitcoinHolder = ECPair.fromPrivateKey(Buffer.alloc(32, 29), { network });
export const bitcoinHolderPayment = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(bitcoinHolder.publicKey), network });

export type UpstreamOutcome = { id: string; status: string; failReason?: string };

/** The helpers of one upstream: its chains' RPC URLs, settling a request there, bridging from chain 1. */
export function nonEvmUpstream(upstream: RunningSimulator) {
  const rpcUrlOf = (chainId: number) => upstream.chains.find((chain) => chain.id === chainId)!.rpcUrl;

  /** Waits until the request settles upstream, its refund included. */
  const settled = async (id: string): Promise<UpstreamOutcome> => {
    let status = await waitForSettledStatus(upstream.baseUrl, id, 60_000);
    for (const started = Date.now(); status.status === 'failure' && Date.now() - started < 60_000; ) {
      await upstream.control.solver.idle();
      status = await waitForSettledStatus(upstream.baseUrl, id, 60_000);
    }
    const record = (await (await fetch(`${upstream.baseUrl}/requests/v3?id=${id}`, { headers: { 'x-api-key': upstream.apiKey } })).json()) as { requests: Array<{ data: { failReason?: string } }> };
    return { id, status: status.status, ...(record.requests[0]!.data.failReason ? { failReason: record.requests[0]!.data.failReason } : {}) };
  };

  /** Settles a request whose fill is a Bitcoin payment: the upstream's Bitcoin chain mines only when asked, so a block is mined until it settles. */
  const settledMiningBitcoin = async (id: string): Promise<UpstreamOutcome> => {
    const miner = chainAdapterOf(upstream, BVM, BvmChain).keys.testAccounts[0]!.address;
    for (const started = Date.now(); Date.now() - started < 60_000; ) {
      const { status } = (await (await fetch(`${upstream.baseUrl}/intents/status/v3?requestId=${id}`)).json()) as { status: string };
      if (['success', 'refund'].includes(status)) return settled(id);
      await bvmRpc(rpcUrlOf(BVM), 'generatetoaddress', [1, miner]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`request ${id} did not settle on the upstream`);
  };

  /** A native bridge from chain 1, paid by the upstream's test account `index`; `beforeDeposit` runs between the quote and the deposit; `settle` waits for the outcome. */
  const bridgeFromEvm = async (index: number, body: Record<string, unknown>, beforeDeposit: () => Promise<void>, settle = settled): Promise<UpstreamOutcome> => {
    const account = upstream.accounts[index]!;
    const quote = await postJson(`${upstream.baseUrl}/quote/v2`, { user: account.address, originChainId: EVM, originCurrency: zeroAddress, amount: String(parseEther('0.01')), tradeType: 'EXACT_INPUT', ...body });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await beforeDeposit();
    await executeQuoteSteps(upstream, account.privateKey as Hex, quote.body);
    return settle(quote.body.steps[0].requestId);
  };

  /** 2 SOL bridged from Solana to chain 1 by a keypair only the upstream funds (10 SOL airdropped there). */
  const bridgeFromSolana = async (recipient: string): Promise<UpstreamOutcome & { connection: Connection; user: Keypair }> => {
    const connection = solanaConnection(rpcUrlOf(SVM));
    const user = await airdroppedKeypair(connection, 10);
    const quote = await postJson(`${upstream.baseUrl}/quote/v2`, {
      user: user.publicKey.toBase58(), recipient, originChainId: SVM, destinationChainId: EVM, originCurrency: SOL, destinationCurrency: zeroAddress, amount: String(2n * BigInt(LAMPORTS_PER_SOL)), tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await sendSvmStepItem(connection, user, quote.body.steps[0].items[0].data as SvmStepItemData);
    return { ...(await settled(quote.body.steps[0].requestId)), connection, user };
  };

  /** 0.015 BTC bridged from Bitcoin to chain 1 by `bitcoinHolder`, from an output a test account paid it upstream only; with the upstream's Esplora URL. */
  const bridgeFromBitcoin = async (recipient: string): Promise<UpstreamOutcome & { esploraUrl: string }> => {
    const bitcoinChain = chainAdapterOf(upstream, BVM, BvmChain);
    const payer = bitcoinChain.keys.testAccounts[0]!;
    const coin = bitcoinChain.ledger.coinsOf(payer.script, false)[0]!;
    const funding = signP2wpkhTransaction([{ coin, key: payer }], [
      { script: bitcoinHolderPayment.output!, value: 40_000_000n },
      { script: payer.script, value: coin.value - 40_000_000n - p2wpkhFee(1, 2) },
    ]);
    await bvmRpc(rpcUrlOf(BVM), 'sendrawtransaction', [funding.toHex()]);
    await bvmRpc(rpcUrlOf(BVM), 'generatetoaddress', [1, payer.address]);
    const quote = await postJson(`${upstream.baseUrl}/quote/v2`, {
      user: bitcoinHolderPayment.address, recipient, originChainId: BVM, destinationChainId: EVM, originCurrency: BTC, destinationCurrency: zeroAddress, amount: '1500000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const signed = signDepositStep(quote.body.steps[0], bitcoinHolder.toWIF());
    await bvmRpc(rpcUrlOf(BVM), 'sendrawtransaction', [signed.hex]);
    await bvmRpc(rpcUrlOf(BVM), 'generatetoaddress', [1, payer.address]);
    return { ...(await settled(quote.body.steps[0].requestId)), esploraUrl: bitcoinChain.describe().clientUrls!.esploraUrl! };
  };

  /** 20 USDC bridged from Lighter to chain 1's USDC by a sub-account made and paid only upstream, through the exchange's API with its own key. */
  const bridgeFromLighter = async (recipient: string): Promise<UpstreamOutcome> => {
    const exchange = chainAdapterOf(upstream, LVM, LvmChain);
    const owner = upstream.chains.find((chain) => chain.id === LVM)!.accounts![0]!;
    const created = (await (await fetch(`${rpcUrlOf(LVM)}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': owner.privateKey } })).json()) as { account: { index: number }; api_key: string };
    exchange.ledger.transfer({ fromAccountIndex: Number(owner.address), toAccountIndex: created.account.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: SUB_COLLATERAL, usdcFee: 10_000n });
    const quote = await postJson(`${upstream.baseUrl}/quote/v2`, {
      user: String(created.account.index), recipient, originChainId: LVM, destinationChainId: EVM, originCurrency: '0', destinationCurrency: await usdcOf(upstream.baseUrl, EVM), amount: '20000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await exchange.userWallet.sendUserTransaction(created.api_key, quote.body.steps[0].items[0]);
    return settled(quote.body.steps[0].requestId);
  };

  /** A native bridge from chain 1 to Bitcoin by test account `index`, paid to `bitcoinHolder` by the upstream's solver from its coins. */
  const bridgeToBitcoin = (index: number): Promise<UpstreamOutcome> => bridgeFromEvm(index, { recipient: bitcoinHolderPayment.address, destinationChainId: BVM, destinationCurrency: BTC }, async () => undefined, settledMiningBitcoin);

  /** A native bridge from chain 1 to Solana by test account `index`, the upstream's Solana solver drained before the deposit (and left so): it ends refund SOLVER_BALANCE_TOO_LOW. */
  const bridgeToDrainedSolana = async (index: number): Promise<UpstreamOutcome> => {
    const solana = chainAdapterOf(upstream, SVM, SvmChain);
    return bridgeFromEvm(index, { recipient: solana.userWallet.addressForLabel('replay-recipient'), destinationChainId: SVM, destinationCurrency: SOL }, async () => {
      solana.ledger.setLamports(solana.describe().solverAddress as never, 1_000_000n);
    });
  };

  return { rpcUrlOf, settled, settledMiningBitcoin, bridgeFromEvm, bridgeFromSolana, bridgeFromBitcoin, bridgeFromLighter, bridgeToBitcoin, bridgeToDrainedSolana };
}
