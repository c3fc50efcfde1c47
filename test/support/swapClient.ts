import { createWalletClient, encodeFunctionData, erc20Abi, http, maxUint256, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { callRecorderArtifact, constantProductPoolArtifact, stablecoinArtifact, wrappedNativeArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, postJson, publicClientFor, waitForSettledStatus, type QuoteBody } from './bridgeClient';
import { evmChainOf } from './evmChainOf';
import type { QuoteResponseBody } from './apiBodies';

/** The origin and destination chains the swap tests use (two of the pooled test chains). */
export const SWAP_TEST_CHAINS = { ORIGIN: 8453, DESTINATION: 42161 } as const;

/** Distinct never-used addresses from `start` on, so a recipient's balance moves only by its fill. */
export function freshAddresses(start: number): () => Address {
  let next = start;
  return () => `0x${(next++).toString(16).padStart(40, '0')}` as Address;
}

/** Balance of `owner` in `currency` (zero address = native) on a chain. */
export function balanceOn(sim: RunningSimulator, chainId: number, currency: string, owner: string): Promise<bigint> {
  const client = publicClientFor(sim, chainId);
  if (currency === zeroAddress) return client.getBalance({ address: owner as Address });
  return client.readContract({ address: currency as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] });
}

/** Sends one contract call from a test account and waits for it to succeed. */
export async function sendFrom(sim: RunningSimulator, chainId: number, privateKey: string, call: { to: Address; data: Hex; value?: bigint }): Promise<Hex> {
  const chain = evmChainOf(sim, chainId);
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  const hash = await wallet.sendTransaction({ to: call.to, data: call.data, value: call.value ?? 0n });
  const receipt = await publicClientFor(sim, chainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
  if (receipt.status !== 'success') throw new Error(`call to ${call.to} reverted`);
  return hash;
}

/**
 * Moves a chain's pool by swapping `amountIn` of `tokenIn` directly on it from a test account
 * (wrapping native first when `tokenIn` is the wrapped native).
 */
export async function swapOnPool(sim: RunningSimulator, chainId: number, privateKey: string, tokenIn: Address, amountIn: bigint): Promise<void> {
  const { pool, wrappedNative } = evmChainOf(sim, chainId).contractAddresses;
  const trader = privateKeyToAccount(privateKey as Hex).address;
  if (tokenIn === wrappedNative) {
    await sendFrom(sim, chainId, privateKey, { to: wrappedNative, data: encodeFunctionData({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }), value: amountIn });
  }
  await sendFrom(sim, chainId, privateKey, { to: tokenIn, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [pool, maxUint256] }) });
  await sendFrom(sim, chainId, privateKey, {
    to: pool,
    data: encodeFunctionData({ abi: constantProductPoolArtifact.abi, functionName: 'swapExactInput', args: [tokenIn, amountIn, 0n, trader] }),
  });
}

/** Quotes, checks the 200, sends every step and waits until the request settles. */
export async function quoteAndExecute(sim: RunningSimulator, privateKey: string, body: QuoteBody, beforeDeposit?: (quote: QuoteResponseBody) => Promise<void>) {
  const response = await postJson<QuoteResponseBody>(`${sim.baseUrl}/quote/v2`, body);
  if (response.status !== 200) throw new Error(`quote failed: ${JSON.stringify(response.body)}`);
  const quote = response.body;
  const requestId = quote.steps[0]!.requestId as Hex;
  if (beforeDeposit) await beforeDeposit(quote);
  const hashes = await executeQuoteSteps(sim, privateKey as Hex, quote);
  const status = await waitForSettledStatus(sim.baseUrl, requestId);
  return { quote, requestId, status, depositHash: hashes[hashes.length - 1]! };
}

/** Deploys a `CallRecorder` (a target for destination calls) from a test account. */
export async function deployCallRecorder(sim: RunningSimulator, chainId: number, privateKey: string): Promise<Address> {
  const chain = evmChainOf(sim, chainId);
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  const hash = await wallet.deployContract({ abi: callRecorderArtifact.abi, bytecode: callRecorderArtifact.bytecode });
  const receipt = await publicClientFor(sim, chainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
  if (!receipt.contractAddress) throw new Error('CallRecorder was not deployed');
  return receipt.contractAddress;
}

/** Puts `account` on the stablecoin's blocklist (as its owner, impersonated on Anvil). */
export async function blockOnStablecoin(sim: RunningSimulator, chainId: number, account: Address): Promise<void> {
  const chain = evmChainOf(sim, chainId);
  const { stablecoin } = chain.contractAddresses;
  const client = publicClientFor(sim, chainId);
  const owner = await client.readContract({ address: stablecoin, abi: stablecoinArtifact.abi, functionName: 'owner' });
  await chain.testClient.impersonateAccount({ address: owner });
  const wallet = createWalletClient({ chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({ account: owner, address: stablecoin, abi: stablecoinArtifact.abi, functionName: 'setBlocked', args: [account, true] });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
  await chain.testClient.stopImpersonatingAccount({ address: owner });
}
