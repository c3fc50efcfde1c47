import { createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { deployFixtureContract, type FixtureConstructorArgs, type FixtureContractName } from '../../src/chains/evm/deployFixtureContract';
import type { FailReason } from '../../src/domain/request/requestStatus';
import type { RunningSimulator } from '../../src/simulator';
import type { QuoteResponseBody } from './apiBodies';
import { executeQuoteSteps, getJson, postJson, publicClientFor, waitForSettledStatus, type QuoteBody } from './bridgeClient';
import { evmChainOf } from './evmChainOf';

/** The chains the Call revert tests use: deposits on one, fills (and their reverts) on the other. */
export const CALL_CHAINS = { ORIGIN: 8453, DESTINATION: 42161 } as const;

/** One destination call of a Call request (`txs[]`). */
export interface CallTx {
  to: Address;
  data: Hex;
  value?: bigint;
}

/** Deploys a fixture contract on a chain from a test account. */
export function deployFixture<N extends FixtureContractName>(sim: RunningSimulator, chainId: number, privateKey: string, name: N, args: FixtureConstructorArgs<N>): Promise<Address> {
  return deployFixtureContract<N>(evmChainOf(sim, chainId).rpcUrl, privateKey as Hex, name, args);
}

/**
 * The quote body of a cross-chain Call paying native on the destination: `amount` is what the
 * calls spend (at least 0.001 ETH, the rest going to the recipient).
 */
export function callQuoteBody(user: Address, txs: CallTx[], amount?: bigint): QuoteBody {
  const spent = txs.reduce((sum, tx) => sum + (tx.value ?? 0n), 0n);
  return {
    user,
    originChainId: CALL_CHAINS.ORIGIN,
    destinationChainId: CALL_CHAINS.DESTINATION,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: (amount ?? (spent > 10n ** 15n ? spent : 10n ** 15n)).toString(),
    tradeType: 'EXACT_OUTPUT',
    txs: txs.map((tx) => ({ to: tx.to, data: tx.data, value: (tx.value ?? 0n).toString() })),
  };
}

/** Sends a transaction from a test account and waits until it is mined (automine on). */
export async function sendMined(sim: RunningSimulator, chainId: number, privateKey: string, call: CallTx): Promise<Hex> {
  const hash = await sendToMempool(sim, chainId, privateKey, call);
  const receipt = await publicClientFor(sim, chainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
  if (receipt.status !== 'success') throw new Error(`call to ${call.to} reverted`);
  return hash;
}

/**
 * Sends a transaction that, with automine off, waits in the mempool and is mined ahead of the
 * solver's fill in the next block (Anvil orders a block by fee; this one pays far more).
 */
export function sendAheadOfFill(sim: RunningSimulator, chainId: number, privateKey: string, call: CallTx): Promise<Hex> {
  return sendToMempool(sim, chainId, privateKey, call);
}

function sendToMempool(sim: RunningSimulator, chainId: number, privateKey: string, call: CallTx): Promise<Hex> {
  const chain = evmChainOf(sim, chainId);
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  return wallet.sendTransaction({
    to: call.to,
    data: call.data,
    value: call.value ?? 0n,
    gas: 1_000_000n,
    maxPriorityFeePerGas: 500n * 10n ** 9n,
    maxFeePerGas: 1_000n * 10n ** 9n,
  });
}

/** The latest block's timestamp on a chain (unix seconds). */
export async function chainTime(sim: RunningSimulator, chainId: number): Promise<bigint> {
  return (await publicClientFor(sim, chainId).getBlock()).timestamp;
}

/**
 * A Call request whose fill really reverts on the destination: quotes (the simulation passes),
 * deposits, and once the solver has checked, simulated and broadcast its fill — held in the
 * destination's mempool, automine off — runs `beforeFillMined` (a transaction sent ahead of the
 * fill, a cheat call, a later block time), then mines one block. Returns once the request has
 * settled and the solver has finished with it (the refund follows the failure).
 */
export async function callRevertingAtFill(
  sim: RunningSimulator,
  params: { privateKey: string; body: QuoteBody; beforeFillMined: () => Promise<unknown> },
): Promise<{ requestId: Hex; quote: QuoteResponseBody }> {
  const response = await postJson<QuoteResponseBody>(`${sim.baseUrl}/quote/v2`, params.body);
  if (response.status !== 200) throw new Error(`quote failed: ${JSON.stringify(response.body)}`);
  const quote = response.body;
  const requestId = quote.steps[0]!.requestId as Hex;
  const destination = evmChainOf(sim, params.body.destinationChainId as number);
  await destination.testClient.setAutomine(false);
  try {
    const reached = sim.control.events.waitFor(requestId, ['submitted', 'failure', 'refund', 'success']);
    await executeQuoteSteps(sim, params.privateKey as Hex, quote);
    const change = await withinMs(SUBMIT_WAIT_MS, reached, () => describeStuckRequest(sim, requestId, destination.testClient));
    if (change.to !== 'submitted') throw new Error(`the fill was never held in the mempool: the request went ${change.from} → ${change.to} (${change.record.failReason})`);
    await params.beforeFillMined();
    await destination.testClient.mine({ blocks: 1 });
  } finally {
    await destination.testClient.setAutomine(true);
  }
  await waitForSettledStatus(sim.baseUrl, requestId);
  await sim.control.solver.idle();
  return { requestId, quote };
}

/** How long the solver may take from the deposit to a broadcast fill (a few hundred ms when it works). */
const SUBMIT_WAIT_MS = 20_000;

/** `promise`, or an error saying what `describe` finds if it has not settled within `ms`. */
async function withinMs<T>(ms: number, promise: Promise<T>, describe: () => Promise<string>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), ms)));
  try {
    const first = await Promise.race([promise, expired]);
    if (first === 'expired') throw new Error(`not within ${ms} ms: ${await describe()}`);
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/** What a request waiting on its fill shows: its statuses so far and the destination's mempool. */
async function describeStuckRequest(sim: RunningSimulator, requestId: Hex, destination: ReturnType<typeof evmChainOf>['testClient']): Promise<string> {
  const statuses = sim.control.requests.eventsFor(requestId).map((e) => e.toStatus);
  const pool = await destination.getTxpoolStatus().catch((error: unknown) => String(error));
  const automine = await destination.getAutomine().catch((error: unknown) => String(error));
  return `request ${requestId} went ${statuses.join(' → ') || '(no status)'}; destination automine ${String(automine)}, txpool ${JSON.stringify(pool)}`;
}

/**
 * The outcome of a fill that reverted on-chain: status `refund` with `failReason`, the decoded
 * revert in `details`, the reverted fill recorded as `failedTxHash` (reverted on the destination
 * chain), and the deposit paid back to the depositor on the origin chain.
 */
export async function expectFillRevertedAndRefunded(
  sim: RunningSimulator,
  requestId: Hex,
  expected: { failReason: FailReason; revertLabel: string | RegExp; depositor: Address; deposited: bigint },
): Promise<void> {
  const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
  expect(status).toMatchObject({ status: 'refund', failReason: expected.failReason });
  expect(status.details.decodedRevert.label).toMatch(expected.revertLabel);
  expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'failure', 'refund']);
  const record = sim.control.requests.get(requestId)!;
  const [fill, refund] = record.outTxs;
  expect([fill?.type, fill?.chainId, fill?.status, refund?.type, refund?.chainId, refund?.status]).toEqual([
    'fill',
    CALL_CHAINS.DESTINATION,
    'failure',
    'refund',
    CALL_CHAINS.ORIGIN,
    'success',
  ]);
  expect(record.failedTxHash).toBe(fill!.txHash);
  expect(status.txHashes).toEqual([fill!.txHash]);
  const fillReceipt = await publicClientFor(sim, CALL_CHAINS.DESTINATION).getTransactionReceipt({ hash: fill!.txHash });
  expect(fillReceipt.status).toBe('reverted');
  // the refund really paid the deposit back: the depositor's balance across the refund's block
  const origin = publicClientFor(sim, CALL_CHAINS.ORIGIN);
  const refundBlock = BigInt(refund!.block);
  const [before, after] = await Promise.all([
    origin.getBalance({ address: expected.depositor, blockNumber: refundBlock - 1n }),
    origin.getBalance({ address: expected.depositor, blockNumber: refundBlock }),
  ]);
  expect(after - before).toBe(expected.deposited);
}

/**
 * A Call request whose quote is refused because its simulated fill reverts (SPEC §7.1
 * DESTINATION_TX_FAILED); returns the error message, which names the decoded error and its label.
 */
export async function quoteRejectedMessage(sim: RunningSimulator, body: QuoteBody): Promise<string> {
  const response = await postJson(`${sim.baseUrl}/quote/v2`, body);
  expect(response.status).toBe(400);
  expect(response.body.errorCode).toBe('DESTINATION_TX_FAILED');
  return response.body.message as string;
}
