import { solanaConnection } from '../support/solanaConnections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { zeroAddress, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import type { CommittedStatusChange } from '../../src/events/RequestEventBus';
import { LvmChain } from '../../src/chains/lvm/LvmChain';
import { chainAdapterOf } from '../support/chainAdapterOf';
import { executeQuoteSteps, getJson, postJson, publicClientFor, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { pooledChains } from '../support/pooledNodes';
import { airdroppedKeypair, sendSvmStepItem, SOL, SVM_CHAIN_ID as SVM, type SvmStepItemData } from '../support/svmClient';
import { BTC_ADDRESS as BTC, BVM_CHAIN_ID as BVM, bvmRpc, signDepositStep } from '../support/bvmClient';

// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success, status:refund, errorCode:SOLVER_CAPACITY_EXCEEDED

// One end-to-end request per cross-VM family of routes that only the solver's inventory serves
// (no pool on the destination holds the wanted currency), each paid with the chain's own client:
// viem on the EVM chain, @solana/web3.js on Solana, a PSBT signed with bitcoinjs-lib and sent
// over Bitcoin Core's JSON-RPC on Bitcoin, the exchange's own transfer API on Lighter.

const EVM = 8453;
const LVM = 3586256;
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

let sim: RunningSimulator;
let connection: Connection;
let bvmRpcUrl: string;
let exchange: string;
/** Every committed status change: a status a poll may miss (failure, then refund at once) is heard here. */
const heard: CommittedStatusChange[] = [];
const failReasonHeard = (requestId: string, to: string) => heard.find((change) => change.requestId === requestId && change.to === to)?.record.failReason;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: SVM }, { id: BVM }, { id: LVM }], onStatusChange: (change) => heard.push(change) });
  connection = solanaConnection(rpcUrlOf(SVM));
  bvmRpcUrl = rpcUrlOf(BVM);
  exchange = rpcUrlOf(LVM);
});

afterAll(async () => {
  await sim?.stop();
});

function rpcUrlOf(chainId: number): string {
  return sim.chains.find((chain) => chain.id === chainId)!.rpcUrl;
}

function fundedAccountOf(chainId: number, i: number): { address: string; privateKey: string } {
  return sim.chains.find((chain) => chain.id === chainId)!.accounts![i]!;
}

async function quote(body: Record<string, unknown>): Promise<{ requestId: string; amountOut: bigint; step: any; body: any }> {
  const answer = await postJson(`${sim.baseUrl}/quote/v2`, { tradeType: 'EXACT_INPUT', ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const step = answer.body.steps[0];
  return { requestId: step.requestId, amountOut: BigInt(answer.body.details.currencyOut.amount), step, body: answer.body };
}

async function expectSuccess(requestId: string): Promise<void> {
  const status = await waitForSettledStatus(sim.baseUrl, requestId);
  expect(status.status, JSON.stringify(status)).toBe('success');
}

/** Mines a Bitcoin block each time the request waits on one (its fill in the mempool), until it settles. */
/** The request fails with `failReason` (heard as it happened: a poll can miss the failure) and is then refunded. */
async function expectFailedThenRefunded(requestId: string, failReason: string): Promise<void> {
  let status = await waitForSettledStatus(sim.baseUrl, requestId);
  expect(['failure', 'refund']).toContain(status.status);
  expect(failReasonHeard(requestId, 'failure')).toBe(failReason);
  for (const started = Date.now(); status.status !== 'refund' && Date.now() - started < 30_000; await new Promise((resolve) => setTimeout(resolve, 5))) {
    status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
  }
  expect(status).toMatchObject({ status: 'refund', failReason });
}

async function mineBitcoinUntilSettled(requestId: string): Promise<void> {
  const miner = bitcoin.payments.p2wpkh({ pubkey: ECPair.makeRandom({ network }).publicKey, network }).address!;
  const started = Date.now();
  for (;;) {
    const { body } = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    if (['success', 'failure', 'refund'].includes(body.status)) return;
    if (body.status === 'submitted') await bvmRpc(bvmRpcUrl, 'generatetoaddress', [1, miner]);
    if (Date.now() - started > 30_000) throw new Error(`request ${requestId} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function collateralOf(index: string): Promise<bigint> {
  const { body } = await getJson(`${exchange}/api/v1/account?by=index&value=${index}`);
  return BigInt(body.accounts[0].collateral);
}

describe('cross-VM routes paid from the solver inventory reach success', () => {
  it('ETH on an EVM chain → SOL: the solver sends SOL to a fresh Solana recipient', async () => {
    const user = sim.accounts[1]!;
    const recipient = Keypair.generate().publicKey;
    const q = await quote({ user: user.address, recipient: recipient.toBase58(), originChainId: EVM, destinationChainId: SVM, originCurrency: zeroAddress, destinationCurrency: SOL, amount: '100000000000000000' });
    expect(q.body.details.operation).toBe('swap');
    await executeQuoteSteps(sim, user.privateKey as Hex, q.body);
    await expectSuccess(q.requestId);
    expect(BigInt(await connection.getBalance(recipient))).toBe(q.amountOut);
  });

  it('SOL → ETH on an EVM chain: a web3.js deposit, the solver pays native ETH', async () => {
    const user = await airdroppedKeypair(connection, 5);
    const recipient = sim.accounts[2]!.address as Address;
    const before = await publicClientFor(sim, EVM).getBalance({ address: recipient });
    const q = await quote({ user: user.publicKey.toBase58(), recipient, originChainId: SVM, destinationChainId: EVM, originCurrency: SOL, destinationCurrency: zeroAddress, amount: '2000000000' });
    await sendSvmStepItem(connection, user, q.step.items[0].data as SvmStepItemData);
    await expectSuccess(q.requestId);
    expect((await publicClientFor(sim, EVM).getBalance({ address: recipient })) - before).toBe(q.amountOut);
  });

  it('BTC → SOL: a signed PSBT sent with sendrawtransaction, one block, the solver sends SOL', async () => {
    const account = fundedAccountOf(BVM, 1);
    const recipient = Keypair.generate().publicKey;
    const q = await quote({ user: account.address, recipient: recipient.toBase58(), originChainId: BVM, destinationChainId: SVM, originCurrency: BTC, destinationCurrency: SOL, amount: '1500000' });
    const signed = signDepositStep(q.step, account.privateKey);
    expect(await bvmRpc(bvmRpcUrl, 'sendrawtransaction', [signed.hex])).toBe(signed.txid);
    await bvmRpc(bvmRpcUrl, 'generatetoaddress', [1, account.address]);
    await expectSuccess(q.requestId);
    expect(BigInt(await connection.getBalance(recipient))).toBe(q.amountOut);
  });

  it('SOL → BTC: a web3.js deposit, the solver pays a bcrt1 recipient from its coins, mined in the next block', async () => {
    const user = await airdroppedKeypair(connection, 5);
    const recipientKey = ECPair.fromPrivateKey(createHash('sha256').update('cross-vm-sol-to-btc').digest(), { network });
    const recipient = bitcoin.payments.p2wpkh({ pubkey: recipientKey.publicKey, network }).address!;
    const q = await quote({ user: user.publicKey.toBase58(), recipient, originChainId: SVM, destinationChainId: BVM, originCurrency: SOL, destinationCurrency: BTC, amount: '3000000000' });
    await sendSvmStepItem(connection, user, q.step.items[0].data as SvmStepItemData);
    await mineBitcoinUntilSettled(q.requestId);
    await expectSuccess(q.requestId);
    const scan = await bvmRpc(bvmRpcUrl, 'scantxoutset', ['start', [`addr(${recipient})`]]);
    const received = scan.unspents.reduce((sum: bigint, coin: { amount: number }) => sum + BigInt(Math.round(coin.amount * 1e8)), 0n);
    expect(received).toBe(q.amountOut);
  });

  it('ETH on an EVM chain → Lighter USDC: the solver transfers collateral to the account index', async () => {
    const user = sim.accounts[3]!;
    const account = fundedAccountOf(LVM, 3);
    const before = await collateralOf(account.address);
    const q = await quote({ user: user.address, recipient: account.address, originChainId: EVM, destinationChainId: LVM, originCurrency: zeroAddress, destinationCurrency: '0', amount: '20000000000000000' });
    await executeQuoteSteps(sim, user.privateKey as Hex, q.body);
    await expectSuccess(q.requestId);
    expect((await collateralOf(account.address)) - before).toBe(q.amountOut);
  });

  it('Lighter USDC → SOL: the withdrawal transfer posted to the exchange with the account key, the solver sends SOL', async () => {
    const account = fundedAccountOf(LVM, 4);
    const recipient = Keypair.generate().publicKey;
    const q = await quote({ user: account.address, recipient: recipient.toBase58(), originChainId: LVM, destinationChainId: SVM, originCurrency: '0', destinationCurrency: SOL, amount: '40000000' });
    const sent = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': account.privateKey }, body: { accountIndex: Number(account.address), action: q.step.items[0].data.action } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await expectSuccess(q.requestId);
    expect(BigInt(await connection.getBalance(new PublicKey(recipient)))).toBe(q.amountOut);
  });
});

describe('inventory that runs short answers as on EVM (Solana: 100,000 SOL at start; Lighter)', () => {
  const ethToSol = (user: Address, amount: bigint) => ({
    user, recipient: Keypair.generate().publicKey.toBase58(), originChainId: EVM, destinationChainId: SVM, originCurrency: zeroAddress, destinationCurrency: SOL, amount: String(amount), tradeType: 'EXACT_INPUT',
  });

  it('a quote for more SOL than the solver holds is SOLVER_CAPACITY_EXCEEDED', async () => {
    const tooMuch = await postJson(`${sim.baseUrl}/quote/v2`, ethToSol(sim.accounts[7]!.address as Address, 6_000n * 10n ** 18n));
    expect(tooMuch).toMatchObject({ status: 400, body: { errorCode: 'SOLVER_CAPACITY_EXCEEDED' } });
  });

  it('two quotes that each fit but not together: the second fill fails SOLVER_BALANCE_TOO_LOW and the ETH deposit is refunded', async () => {
    const [first, second] = [sim.accounts[5]!, sim.accounts[6]!];
    const quotes = [];
    for (const user of [first, second]) {
      const answer = await postJson(`${sim.baseUrl}/quote/v2`, ethToSol(user.address as Address, 3_500n * 10n ** 18n));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      quotes.push(answer.body);
    }
    await executeQuoteSteps(sim, first.privateKey as Hex, quotes[0]);
    await expectSuccess(quotes[0].steps[0].requestId);
    await executeQuoteSteps(sim, second.privateKey as Hex, quotes[1]);
    const requestId = quotes[1].steps[0].requestId as string;
    await expectFailedThenRefunded(requestId, 'SOLVER_BALANCE_TOO_LOW');
  });

  it("Lighter: the solver's USDC spent after the quote fails the fill SOLVER_BALANCE_TOO_LOW and refunds the ETH deposit", async () => {
    const user = sim.accounts[8]!;
    const account = fundedAccountOf(LVM, 8);
    const before = await collateralOf(account.address);
    const answer = await postJson(`${sim.baseUrl}/quote/v2`, { user: user.address, recipient: account.address, originChainId: EVM, destinationChainId: LVM, originCurrency: zeroAddress, destinationCurrency: '0', amount: String(10n ** 18n), tradeType: 'EXACT_INPUT' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // after the quote, the solver's collateral goes to the exchange's own account but 100 USDC
    const ledger = chainAdapterOf(sim, LVM, LvmChain).ledger;
    const solverIndex = Number((await getJson(`${sim.baseUrl}/chains`)).body.chains.find((chain: { id: number }) => chain.id === LVM).protocol.v2.depository);
    const held = ledger.balance(solverIndex, 3, 0);
    ledger.transfer({ fromAccountIndex: solverIndex, toAccountIndex: 0, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: held - 100_000_000n, usdcFee: 10_000n });
    await executeQuoteSteps(sim, user.privateKey as Hex, answer.body);
    const requestId = answer.body.steps[0].requestId as string;
    await expectFailedThenRefunded(requestId, 'SOLVER_BALANCE_TOO_LOW');
    expect(await collateralOf(account.address)).toBe(before);
  });
});
