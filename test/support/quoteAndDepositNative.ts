import { encodeFunctionData, type Address, type Hex } from 'viem';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody, postJson, publicClientFor } from './bridgeClient';
import { evmChainOf } from './evmChainOf';
import { sendFrom } from './swapClient';

/** Quotes a native bridge for account `index` and deposits it; resolves once the solver has looked at it. */
export async function quoteAndDepositNative(
  sim: RunningSimulator,
  index: number,
  route: { origin: number; destination: number },
  body: Partial<Parameters<typeof nativeBridgeBody>[1]> = {},
) {
  const user = sim.accounts[index]!;
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: route.origin, destinationChainId: route.destination, ...body }));
  if (quote.status !== 200) throw new Error(`quote answered ${quote.status}: ${JSON.stringify(quote.body)}`);
  const requestId = quote.body.steps[0].requestId as Hex;
  const amount = BigInt(quote.body.details.currencyIn.amount);
  const depositHash = await sendFrom(sim, route.origin, user.privateKey, {
    to: evmChainOf(sim, route.origin).contractAddresses.depository,
    data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user.address as Address, requestId] }),
    value: amount,
  });
  const depositBlock = (await publicClientFor(sim, route.origin).getTransactionReceipt({ hash: depositHash })).blockNumber;
  await evmChainOf(sim, route.origin).syncNow();
  await sim.control.solver.idle();
  return { requestId, amount, depositHash, user, depositBlock };
}
