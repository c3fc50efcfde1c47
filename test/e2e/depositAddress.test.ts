// covers: endpoint:POST /quote/v2, endpoint:GET /requests/v3, status:success, status:refund, transition:pending->refund, failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL, failReason:ORIGIN_CURRENCY_MISMATCH, failReason:DEPOSIT_ADDRESS_MISMATCH, errorCode:INVALID_ADDRESS
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, decodeFunctionData, erc20Abi, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositAddressFactoryArtifact, depositForwarderArtifact, depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import { depositAddressOf } from '../../src/chains/evm/EvmDepositAddresses';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

const ORIGIN = 8453;
const DESTINATION = 42161;

/** SPEC §1.6, §2.2 step `depositAddress`, §2.3 `depositAddress`/`refundTo`, §3 strict rules, §4.1. */
describe('deposit addresses', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const originChain = () => evmChainOf(sim, ORIGIN);
  const usdcOn = (chainId: number) => evmChainOf(sim, chainId).contractAddresses.stablecoin;

  async function quote(body: Record<string, unknown>) {
    return postJson(`${sim.baseUrl}/quote/v2`, {
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '20000000000000000',
      tradeType: 'EXACT_INPUT',
      useDepositAddress: true,
      ...body,
    });
  }

  /** What a user does with a deposit address: a plain transfer, no approval, no depository call. */
  async function pay(privateKey: string, to: Address, currency: Address, amount: bigint, chainId: number = ORIGIN): Promise<Hex> {
    const chain = evmChainOf(sim, chainId);
    const wallet = createWalletClient({ account: privateKeyToAccount(privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
    const hash =
      currency === zeroAddress
        ? await wallet.sendTransaction({ to, value: amount })
        : await wallet.writeContract({ address: currency, abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
    const receipt = await publicClientFor(sim, chainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
    expect(receipt.status).toBe('success');
    return hash;
  }

  async function balanceOf(chainId: number, owner: Address, currency: Address): Promise<bigint> {
    const client = publicClientFor(sim, chainId);
    if (currency === zeroAddress) return client.getBalance({ address: owner });
    return client.readContract({ address: currency, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  }

  /** The sweep's Depository `Deposit` log: tagged with the request id, credited to the payer. */
  async function depositoryDepositsFor(requestId: Hex) {
    return publicClientFor(sim, ORIGIN).getContractEvents({
      address: originChain().contractAddresses.depository,
      abi: depositoryArtifact.abi,
      eventName: 'Deposit',
      args: { id: requestId },
      fromBlock: 0n,
    });
  }

  it('open, native: the step is a plain transfer to a per-request address that the solver sweeps into the depository', async () => {
    const user = sim.accounts[1]!;
    const recipient = sim.accounts[2]!.address as Address;
    const response = await quote({ user: user.address, recipient });
    expect(response.status).toBe(200);
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const depositAddress = step.depositAddress as Address;
    const amountIn = BigInt(response.body.details.currencyIn.amount);

    // the address is the factory's CREATE2 address for this request id, on the origin chain
    const onChain = await publicClientFor(sim, ORIGIN).readContract({
      address: originChain().contractAddresses.depositAddressFactory,
      abi: depositAddressFactoryArtifact.abi,
      functionName: 'addressOf',
      args: [requestId],
    });
    expect(depositAddress).toBe(onChain);
    expect(response.body.steps).toHaveLength(1);
    expect(step).toMatchObject({ id: 'deposit', kind: 'transaction' });
    expect(step.items[0].data).toMatchObject({ from: user.address, to: depositAddress, data: '0x', value: amountIn.toString(), chainId: ORIGIN });
    expect(step.items[0].check.endpoint).toBe(`/intents/status?requestId=${requestId}`);
    const stored = sim.control.requests.get(requestId)!;
    expect(stored.depositAddress).toEqual({ address: depositAddress, type: 'open', depositor: null, depositTxHash: null, recoveryAddress: null });
    expect(stored.refundTo).toBeNull();
    expect(stored.quote.features).toEqual(['deposit_address']);

    const before = await balanceOf(DESTINATION, recipient, zeroAddress);
    const paymentHash = await pay(user.privateKey, depositAddress, zeroAddress, amountIn);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);

    expect(status.status).toBe('success');
    expect((await balanceOf(DESTINATION, recipient, zeroAddress)) - before).toBe(BigInt(response.body.details.currencyOut.amount));
    // inTxHashes track the sweep into the depository, not the user's transfer (SPEC §6.1)
    const deposits = await depositoryDepositsFor(requestId);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]!.args).toMatchObject({ depositor: user.address, token: zeroAddress, amount: amountIn });
    expect(status.inTxHashes).toEqual([deposits[0]!.transactionHash]);
    expect(status.inTxHashes).not.toContain(paymentHash);
    expect(await balanceOf(ORIGIN, depositAddress, zeroAddress)).toBe(0n);

    const record = sim.control.requests.get(requestId)!;
    expect(record.depositAddress).toMatchObject({ depositor: user.address, depositTxHash: paymentHash });
    expect(record.depositor).toBe(user.address);
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);

    // the listing finds it by its deposit address and by the user's transfer, and shows both (SPEC §2.3, §4.3)
    for (const query of [`depositAddress=${depositAddress}`, `depositTxHash=${paymentHash}`]) {
      const listed = await fetch(`${sim.baseUrl}/requests/v3?${query}`, { headers: { 'x-api-key': sim.apiKey } }).then((r) => r.json() as Promise<any>);
      expect(listed.requests.map((r: { id: string }) => r.id)).toEqual([requestId]);
      expect(listed.requests[0]).toMatchObject({
        refundTo: null,
        depositAddress: { address: depositAddress, type: 'open', depositor: user.address, depositTxHash: paymentHash, recoveryAddress: null },
      });
    }
  });

  it('open, USDC: the step is an ERC-20 transfer to the address; an open address fills for what arrived', async () => {
    const user = sim.accounts[3]!;
    const [usdcIn, usdcOut] = [usdcOn(ORIGIN), usdcOn(DESTINATION)];
    const response = await quote({ user: user.address, originCurrency: usdcIn, destinationCurrency: usdcOut, amount: '30000000' });
    expect(response.status).toBe(200);
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const depositAddress = step.depositAddress as Address;
    expect(step.items[0].data).toMatchObject({ to: usdcIn, value: '0' });
    expect(decodeFunctionData({ abi: erc20Abi, data: step.items[0].data.data })).toEqual({ functionName: 'transfer', args: [depositAddress, 30_000_000n] });

    // the user sends a little more than quoted: the open address revalidates against what arrived
    const paid = 31_000_000n;
    const before = await balanceOf(DESTINATION, user.address as Address, usdcOut);
    const paymentHash = await pay(user.privateKey, depositAddress, usdcIn, paid);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    const received = (await balanceOf(DESTINATION, user.address as Address, usdcOut)) - before;
    expect(received).toBeGreaterThan(BigInt(response.body.details.currencyOut.amount));
    expect(received).toBeLessThan(paid);
    const deposits = await depositoryDepositsFor(requestId);
    expect(deposits[0]!.args).toMatchObject({ depositor: user.address, token: usdcIn, amount: paid });
    expect(await balanceOf(ORIGIN, depositAddress, usdcIn)).toBe(0n);
    expect(sim.control.requests.get(requestId)!.depositAddress).toMatchObject({ type: 'open', depositor: user.address, depositTxHash: paymentHash });
    expect(sim.control.requests.get(requestId)!.outTxs.map((tx) => tx.type)).toEqual(['fill']);
  });

  it('strict, exact payment: fills the quoted amount, no refund leg', async () => {
    const user = sim.accounts[4]!;
    const refundTo = sim.accounts[7]!.address as Address;
    const response = await quote({ user: user.address, strict: true, refundTo });
    expect(response.status).toBe(200);
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const record = sim.control.requests.get(requestId)!;
    expect(record.depositAddress).toMatchObject({ type: 'strict', recoveryAddress: null });
    expect(record.refundTo).toBe(refundTo);

    const before = await balanceOf(DESTINATION, user.address as Address, zeroAddress);
    await pay(user.privateKey, step.depositAddress, zeroAddress, BigInt(response.body.details.currencyIn.amount));
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    expect((await balanceOf(DESTINATION, user.address as Address, zeroAddress)) - before).toBe(BigInt(response.body.details.currencyOut.amount));
    expect(sim.control.requests.get(requestId)!.outTxs.map((tx) => tx.type)).toEqual(['fill']);
  });

  it('strict, underpayment: fails the fill and refunds everything that arrived to refundTo', async () => {
    const user = sim.accounts[5]!;
    const refundTo = sim.accounts[8]!.address as Address;
    const [usdcIn, usdcOut] = [usdcOn(ORIGIN), usdcOn(DESTINATION)];
    const response = await quote({ user: user.address, originCurrency: usdcIn, destinationCurrency: usdcOut, amount: '40000000', strict: true, refundTo });
    expect(response.status).toBe(200);
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const short = BigInt(response.body.details.currencyIn.amount) - 1n;

    const refundToBefore = await balanceOf(ORIGIN, refundTo, usdcIn);
    await pay(user.privateKey, step.depositAddress, usdcIn, short);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', txHashes: [] });
    expect((await balanceOf(ORIGIN, refundTo, usdcIn)) - refundToBefore).toBe(short);
    const record = sim.control.requests.get(requestId)!;
    expect(record.outTxs).toHaveLength(1);
    expect(record.outTxs[0]).toMatchObject({ type: 'refund', chainId: ORIGIN, status: 'success', data: { to: refundTo, currency: usdcIn, amount: short } });
  });

  it('strict, overpayment: fills the quoted amount and refunds the excess to refundTo in a separate refund leg', async () => {
    const user = sim.accounts[6]!;
    const refundTo = sim.accounts[9]!.address as Address;
    const recipient = sim.accounts[7]!.address as Address;
    const response = await quote({ user: user.address, recipient, strict: true, refundTo });
    expect(response.status).toBe(200);
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const amountIn = BigInt(response.body.details.currencyIn.amount);
    const excess = 3_000_000_000_000_000n;

    const [recipientBefore, refundToBefore] = await Promise.all([balanceOf(DESTINATION, recipient, zeroAddress), balanceOf(ORIGIN, refundTo, zeroAddress)]);
    await pay(user.privateKey, step.depositAddress, zeroAddress, amountIn + excess);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'success', failReason: 'N/A' });
    expect((await balanceOf(DESTINATION, recipient, zeroAddress)) - recipientBefore).toBe(BigInt(response.body.details.currencyOut.amount));
    expect((await balanceOf(ORIGIN, refundTo, zeroAddress)) - refundToBefore).toBe(excess);

    const record = sim.control.requests.get(requestId)!;
    expect(record.outTxs.map((tx) => tx.type)).toEqual(['fill', 'refund']);
    expect(record.outTxs[1]).toMatchObject({ chainId: ORIGIN, status: 'success', data: { to: refundTo, currency: zeroAddress, amount: excess } });
    expect(status.txHashes).toEqual([record.outTxs[0]!.txHash]);
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
  });

  it('strict EXACT_OUTPUT Crosschain Swap (ETH → USDC), overpaid: delivers exactly the quoted USDC through the pool and returns the excess ETH', async () => {
    const user = sim.accounts[8]!;
    const refundTo = sim.accounts[0]!.address as Address;
    const recipient = `0x${'de'.repeat(20)}` as Address;
    const usdcOut = usdcOn(DESTINATION);
    const response = await quote({ user: user.address, recipient, destinationCurrency: usdcOut, amount: '150000000', tradeType: 'EXACT_OUTPUT', strict: true, refundTo });
    expect(response.status).toBe(200);
    expect(response.body.details.operation).toBe('swap');
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const excess = 1_000_000_000_000_000n;

    const [recipientBefore, refundToBefore] = await Promise.all([balanceOf(DESTINATION, recipient, usdcOut), balanceOf(ORIGIN, refundTo, zeroAddress)]);
    await pay(user.privateKey, step.depositAddress, zeroAddress, BigInt(response.body.details.currencyIn.amount) + excess);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    expect((await balanceOf(DESTINATION, recipient, usdcOut)) - recipientBefore).toBe(150_000_000n);
    expect((await balanceOf(ORIGIN, refundTo, zeroAddress)) - refundToBefore).toBe(excess);
    expect(sim.control.requests.get(requestId)!.outTxs.map((tx) => [tx.type, tx.data.amount])).toEqual([
      ['fill', 150_000_000n],
      ['refund', excess],
    ]);
  });

  it('refunds of an open deposit address go to the payer when no refundTo is given', async () => {
    const user = sim.accounts[0]!;
    const payer = sim.accounts[1]!;
    const response = await quote({ user: user.address });
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    // far below what the quote needs: the open address cannot fill it
    const dust = BigInt(response.body.details.currencyIn.amount) / 10n;
    await pay(payer.privateKey, step.depositAddress, zeroAddress, dust);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('refund');
    const record = sim.control.requests.get(requestId)!;
    expect(record.depositAddress).toMatchObject({ depositor: payer.address });
    expect(record.outTxs[0]).toMatchObject({ type: 'refund', data: { to: payer.address, amount: dust } });
  });

  it('a deposit address paid in another currency than quoted is swept and refunded in that currency (ORIGIN_CURRENCY_MISMATCH)', async () => {
    const user = sim.accounts[2]!;
    const usdcIn = usdcOn(ORIGIN);
    const response = await quote({ user: user.address });
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const before = await balanceOf(ORIGIN, user.address as Address, usdcIn);
    await pay(user.privateKey, step.depositAddress, usdcIn, 7_000_000n);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'ORIGIN_CURRENCY_MISMATCH' });
    expect(await balanceOf(ORIGIN, user.address as Address, usdcIn)).toBe(before);
    expect(sim.control.requests.get(requestId)!.outTxs[0]).toMatchObject({ type: 'refund', data: { to: user.address, currency: usdcIn, amount: 7_000_000n } });
  });

  it('a strict deposit address paid on another chain is swept there and refunded there to refundTo (DEPOSIT_ADDRESS_MISMATCH)', async () => {
    const WRONG_CHAIN = 1;
    const user = sim.accounts[3]!;
    const refundTo = sim.accounts[9]!.address as Address;
    const response = await quote({ user: user.address, strict: true, refundTo });
    expect(response.status).toBe(200);
    const [step] = response.body.steps;
    const requestId = step.requestId as Hex;
    const amountIn = BigInt(response.body.details.currencyIn.amount);
    // the factory has one address on every chain, so the request's deposit address exists on chain 1 too
    const depositAddressThere = depositAddressOf(evmChainOf(sim, WRONG_CHAIN).contractAddresses.depositAddressFactory, requestId);
    expect(depositAddressThere).toBe(step.depositAddress);

    const refundToBefore = await balanceOf(WRONG_CHAIN, refundTo, zeroAddress);
    const paymentHash = await pay(user.privateKey, step.depositAddress, zeroAddress, amountIn, WRONG_CHAIN);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'DEPOSIT_ADDRESS_MISMATCH', refundFailReason: 'N/A', txHashes: [] });
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'refund']);
    // paid back on the chain it arrived on, to refundTo; nothing left at the address there
    expect((await balanceOf(WRONG_CHAIN, refundTo, zeroAddress)) - refundToBefore).toBe(amountIn);
    expect(await balanceOf(WRONG_CHAIN, step.depositAddress, zeroAddress)).toBe(0n);
    const record = sim.control.requests.get(requestId)!;
    expect(record.depositAddress).toMatchObject({ depositor: user.address, depositTxHash: paymentHash });
    expect(record.inTxs).toMatchObject([{ type: 'deposit', chainId: WRONG_CHAIN, data: { amount: amountIn } }]);
    expect(record.outTxs).toMatchObject([{ type: 'refund', chainId: WRONG_CHAIN, status: 'success', data: { to: refundTo, currency: zeroAddress, amount: amountIn } }]);
  });

  it('only the solver can sweep, an empty address cannot be swept, and the address is computable off-chain', async () => {
    const client = publicClientFor(sim, ORIGIN);
    const factory = originChain().contractAddresses.depositAddressFactory;
    const id = `0x${'ab'.repeat(32)}` as Hex;
    // the forwarder's errors bubble up through the factory
    const sweepAbi = [...depositAddressFactoryArtifact.abi, ...depositForwarderArtifact.abi.filter((item) => item.type === 'error')];
    const sweep = (account: Address) =>
      client.simulateContract({ account, address: factory, abi: sweepAbi, functionName: 'sweep', args: [id, zeroAddress, account] }).then(
        () => 'ok',
        (error: Error) => error.message,
      );
    expect(await sweep(sim.accounts[0]!.address as Address)).toMatch(/NotOwner/);
    expect(await sweep(sim.control.solverAddress as Address)).toMatch(/NothingToSweep/);
    const onChain = await client.readContract({ address: factory, abi: depositAddressFactoryArtifact.abi, functionName: 'addressOf', args: [id] });
    expect(depositAddressOf(factory, id)).toBe(onChain);
  });

  describe('option validation (SPEC §4.1, §7.1)', () => {
    const user = () => sim.accounts[0]!.address;

    it.each([
      ['strict without refundTo', { strict: true }, 'INVALID_INPUT_PARAMS', /refundTo is required/],
      ['strict without useDepositAddress', { useDepositAddress: false, strict: true, refundTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }, 'INVALID_INPUT_PARAMS', /useDepositAddress/],
      ['refundTo that is not an address', { strict: true, refundTo: '0x1234' }, 'INVALID_ADDRESS', /refundTo 0x1234 is not a valid address on chain 8453/],
      ['refundTo on another VM', { refundTo: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }, 'INVALID_ADDRESS', /refundTo/],
      ['recoveryAddress that is not an address', { recoveryAddress: 'nope' }, 'INVALID_ADDRESS', /recoveryAddress/],
      ['an open address under EXACT_OUTPUT', { tradeType: 'EXACT_OUTPUT' }, 'INVALID_INPUT_PARAMS', /strict/],
    ])('%s → 400 %s', async (_name, body, errorCode, message) => {
      const response = await quote({ user: user(), ...body });
      expect(response.status).toBe(400);
      expect(response.body.errorCode).toBe(errorCode);
      expect(response.body.message).toMatch(message);
    });

    it('accepts refundTo and recoveryAddress in any case and records them checksummed', async () => {
      const refundTo = sim.accounts[3]!.address;
      const recoveryAddress = sim.accounts[4]!.address;
      const response = await quote({ user: user(), strict: true, refundTo: refundTo.toLowerCase(), recoveryAddress: recoveryAddress.toLowerCase(), tradeType: 'EXACT_OUTPUT' });
      expect(response.status).toBe(200);
      const record = sim.control.requests.get(response.body.steps[0].requestId)!;
      expect(record.refundTo).toBe(refundTo);
      expect(record.depositAddress).toMatchObject({ type: 'strict', recoveryAddress });
      expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${record.id}`)).body.status).toBe('waiting');
    });

    it('a quote without useDepositAddress keeps the depository step and an empty depositAddress', async () => {
      const response = await quote({ user: user(), useDepositAddress: undefined });
      expect(response.status).toBe(200);
      expect(response.body.steps[0]).toMatchObject({ depositAddress: '', items: [{ data: { to: originChain().contractAddresses.depository } }] });
      expect(sim.control.requests.get(response.body.steps[0].requestId)!.depositAddress).toBeNull();
    });
  });
});
