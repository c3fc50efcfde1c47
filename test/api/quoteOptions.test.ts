import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, recoverAddress, zeroAddress, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, postJson, publicClientFor, waitForSettledStatus, type QuoteBody } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:POST /quote/v2, endpoint:POST /quote, endpoint:POST /price, errorCode:INVALID_ADDRESS, errorCode:INVALID_SLIPPAGE_TOLERANCE, limit:slippageTolerance, latePaymentSlippageTolerance @ quote and price, status:success

const APP = '0x000000000000000000000000000000000000a99a';

describe('quote options (SPEC §1.6, §2.2, §2.3) over real HTTP', () => {
  let sim: RunningSimulator;
  let usdc: (chainId: number) => Address;
  let usdcBridge: (overrides?: Record<string, unknown>) => QuoteBody;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
    usdc = (chainId) => evmChainOf(sim, chainId).contractAddresses.stablecoin;
    usdcBridge = (overrides = {}) => ({
      user: sim.accounts[4]!.address,
      originChainId: 1,
      destinationChainId: 8453,
      originCurrency: usdc(1),
      destinationCurrency: usdc(8453),
      amount: '100000000', // 100 USDC
      tradeType: 'EXACT_INPUT',
      ...overrides,
    });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const quote = async (body: unknown, path = '/quote/v2') => postJson(`${sim.baseUrl}${path}`, body);

  it('app fees: bps of the input on top of the fees, in fees.app and expandedPriceImpact.app, recorded in the stablecoin; the fill pays the rest on chain', async () => {
    const plain = await quote(usdcBridge());
    const withFee = await quote(usdcBridge({ appFees: [{ recipient: APP, fee: '100' }, { recipient: sim.accounts[5]!.address, fee: '50' }] }));
    expect(withFee.status).toBe(200);
    const { fees, details } = withFee.body;
    // 150 bps of 100 USDC, split 100:50
    expect(fees.app.amount).toBe('1500000');
    expect(fees.app.currency.symbol).toBe('USDC');
    expect(details.expandedPriceImpact.app.usd).toBe('-1.5');
    expect(BigInt(plain.body.details.currencyOut.amount) - BigInt(details.currencyOut.amount)).toBe(1_500_000n);
    expect(BigInt(details.currencyIn.amount)).toBe(BigInt(details.currencyOut.amount) + BigInt(fees.relayer.amount) + BigInt(fees.app.amount));

    const requestId = withFee.body.steps.at(-1).requestId as string;
    const record = sim.control.requests.get(requestId)!;
    expect(record.quote.features).toEqual(['app_fees']);
    expect(record.appFees?.currency).toMatchObject({ chainId: 1, symbol: 'USDC', address: usdc(1) });
    expect(record.appFees?.quoted).toEqual([
      { recipient: APP, bps: 100n, amount: 1_000_000n },
      { recipient: sim.accounts[5]!.address, bps: 50n, amount: 500_000n },
    ]);
    expect(record.appFees?.actual).toEqual([]);

    const recipient = sim.accounts[4]!.address as Address;
    const destination = publicClientFor(sim, 8453);
    const balance = () => destination.readContract({ address: usdc(8453), abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const before = await balance();
    await executeQuoteSteps(sim, sim.accounts[4]!.privateKey as Hex, withFee.body);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    expect((await balance()) - before).toBe(BigInt(details.currencyOut.amount));
    expect(sim.control.requests.get(requestId)!.appFees?.actual).toEqual(record.appFees?.quoted);
  });

  it('app fees in ETH are collected in the stablecoin: the record converts at fixture prices', async () => {
    const response = await quote({ ...usdcBridge(), originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '1000000000000000000', appFees: [{ recipient: APP, fee: '10' }] });
    expect(response.status).toBe(200);
    expect(response.body.fees.app.amount).toBe('1000000000000000'); // 10 bps of 1 ETH, in ETH
    const record = sim.control.requests.get(response.body.steps[0].requestId)!;
    expect(record.appFees?.quoted).toEqual([{ recipient: APP, bps: 10n, amount: 3_000_000n }]); // $3 in USDC
  });

  it('fee sponsorship: fees.subsidized up to the cap, feeSponsorship.quoted with buckets and capHit', async () => {
    const plain = await quote(usdcBridge());
    const uncapped = await quote(usdcBridge({ subsidizeFees: true }));
    expect(uncapped.body.fees.subsidized.amount).toBe(plain.body.fees.relayer.amount);
    expect(uncapped.body.details.currencyOut.amount).toBe('100000000'); // every fee sponsored
    expect(BigInt(uncapped.body.details.expandedPriceImpact.sponsored.usd.replace('.', ''))).toBeGreaterThan(0n);

    const capped = await quote(usdcBridge({ subsidizeFees: true, maxSubsidizationAmount: '50000', sponsoredFeeComponents: ['relay', 'execution'] }));
    expect(capped.status).toBe(200);
    expect(capped.body.fees.subsidized.amount).toBe('50000'); // $0.05 cap, in USDC
    expect(BigInt(capped.body.details.currencyOut.amount) - BigInt(plain.body.details.currencyOut.amount)).toBe(50_000n);
    const record = sim.control.requests.get(capped.body.steps.at(-1).requestId)!;
    const quoted = record.feeSponsorship!.quoted as any;
    expect(quoted.selectedComponents).toEqual(['execution', 'platform']);
    expect(quoted.maxSubsidizationAmount).toBe('50000');
    expect(quoted.capHit).toBe(true);
    expect(Object.keys(quoted.components)).toEqual(['execution', 'swap', 'platform', 'app', 'rent']);
    for (const bucket of Object.values<any>(quoted.components)) {
      for (const part of ['total', 'sponsored', 'userPays']) expect(Object.keys(bucket[part]).sort()).toEqual(['amount', 'amountFormatted', 'amountUsd', 'minimumAmount']);
      expect(BigInt(bucket.sponsored.amount) + BigInt(bucket.userPays.amount)).toBe(BigInt(bucket.total.amount));
    }
    const sponsored = Object.values<any>(quoted.components).reduce((sum, b) => sum + BigInt(b.sponsored.amount), 0n);
    expect(sponsored).toBe(50_000n);

    const refused = await quote(usdcBridge({ maxSubsidizationAmount: '1000' }));
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('INVALID_INPUT_PARAMS');
  });

  it('gas top-up: $2 (or topupGasAmount) of destination native in currencyGasTopup, charged as execution; ignored when the output is already native', async () => {
    const plain = await quote(usdcBridge());
    const topped = await quote(usdcBridge({ topupGas: true }));
    expect(topped.status).toBe(200);
    const expected = (2n * 10n ** 18n) / 3000n;
    expect(topped.body.details.currencyGasTopup).toMatchObject({ amount: expected.toString(), currency: { chainId: 8453, address: zeroAddress } });
    expect(BigInt(topped.body.fees.relayerGas.amount) - BigInt(plain.body.fees.relayerGas.amount)).toBeGreaterThanOrEqual(1_999_999n);
    const record = sim.control.requests.get(topped.body.steps.at(-1).requestId)!;
    expect(record.quote.features).toEqual(['gas_top_up']);
    expect(record.quote.options?.gasTopUp?.amount).toBe(expected);
    const order = topped.body.protocol.v2.orderData.output.payments;
    expect(order[1]).toMatchObject({ currency: zeroAddress, expectedAmount: expected.toString() });

    const five = await quote(usdcBridge({ topupGas: true, topupGasAmount: '5000000' }));
    expect(five.body.details.currencyGasTopup.amount).toBe(((5n * 10n ** 18n) / 3000n).toString());

    const native = await quote({ ...usdcBridge(), originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000', topupGas: true });
    expect(native.status).toBe(200);
    expect(native.body.details.currencyGasTopup).toBeUndefined();
  });

  it('gas top-up is delivered on chain by the fill: the recipient gets the USDC and the native top-up', async () => {
    const recipient = '0x000000000000000000000000000000000000b0b0' as Address;
    const body = usdcBridge({ recipient, topupGas: true, topupGasAmount: '3000000' });
    const response = await quote(body);
    expect(response.status).toBe(200);
    const topUp = BigInt(response.body.details.currencyGasTopup.amount);
    expect(topUp).toBe(10n ** 15n); // $3 at $3000
    const destination = publicClientFor(sim, 8453);
    const usdcBefore = await destination.readContract({ address: usdc(8453), abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const nativeBefore = await destination.getBalance({ address: recipient });
    await executeQuoteSteps(sim, sim.accounts[4]!.privateKey as Hex, response.body);
    const requestId = response.body.steps.at(-1).requestId as string;
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    expect((await destination.getBalance({ address: recipient })) - nativeBefore).toBe(topUp);
    const usdcAfter = await destination.readContract({ address: usdc(8453), abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    expect(usdcAfter - usdcBefore).toBe(BigInt(response.body.details.currencyOut.amount));
  });

  it('fixed rate: isFixedRate, fixedRateFee, no destination slippage, feature fixed_rate', async () => {
    const plain = await quote(usdcBridge());
    const fixed = await quote(usdcBridge({ fixedRate: '20' }));
    expect(fixed.status).toBe(200);
    const d = fixed.body.details;
    expect(d.isFixedRate).toBe(true);
    expect(d.fixedRateFee).toEqual({ usd: '0.2' });
    expect(d.expandedPriceImpact.swap.usd).toBe('-0.2');
    expect(d.currencyOut.minimumAmount).toBe(d.currencyOut.amount);
    expect(d.slippageTolerance.destination).toMatchObject({ value: '0', percent: '0' });
    expect(BigInt(plain.body.details.currencyOut.amount) - BigInt(d.currencyOut.amount)).toBe(200_000n);
    expect(plain.body.details.isFixedRate).toBe(false);
    expect(plain.body.details.fixedRateFee).toBeUndefined();
    expect(sim.control.requests.get(fixed.body.steps.at(-1).requestId)!.quote.features).toEqual(['fixed_rate']);
  });

  it('protocol.v2: a deterministic order through the depository; orderSignature (solver ECDSA over orderId) only with includeProtocolData', async () => {
    const without = await quote(usdcBridge());
    const v2 = without.body.protocol.v2;
    expect(Object.keys(v2).sort()).toEqual(['hubType', 'orderData', 'orderId', 'paymentDetails']);
    expect(v2.hubType).toBe('onchain');
    expect(v2.orderId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(v2.paymentDetails).toEqual({
      chainId: 'ethereum',
      depository: evmChainOf(sim, 1).contractAddresses.depository,
      currency: usdc(1),
      amount: without.body.details.currencyIn.amount,
    });
    expect(v2.orderData).toMatchObject({
      solver: sim.control.solverAddress,
      solverChainId: 'ethereum',
      inputs: [{ payment: { chainId: 'ethereum', currency: usdc(1), amount: '100000000', weight: '1' }, refunds: [{ recipient: sim.accounts[4]!.address, minimumAmount: '100000000' }] }],
      output: {
        chainId: 'base',
        payments: [{ recipient: sim.accounts[4]!.address, currency: usdc(8453), expectedAmount: without.body.details.currencyOut.amount, minimumAmount: without.body.details.currencyOut.minimumAmount }],
        calls: [],
      },
    });
    expect(v2.orderData.output.deadline).toBe(v2.orderData.inputs[0].refunds[0].deadline);
    expect(sim.control.requests.get(without.body.steps.at(-1).requestId)!.quote.orderId).toBe(v2.orderId);

    const withData = await quote(usdcBridge({ includeProtocolData: true }));
    const signed = withData.body.protocol.v2;
    expect(signed.orderSignature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(await recoverAddress({ hash: signed.orderId, signature: signed.orderSignature })).toBe(sim.control.solverAddress);
    expect(signed.orderId).not.toBe(v2.orderId); // another request, another salt
  });

  it('POST /price answers fees and details without steps or calldata and stores nothing; slippage is validated as on /quote/v2', async () => {
    const waitingBefore = sim.control.requests.listByStatus('waiting').length;
    const price = await quote(usdcBridge({ appFees: [{ recipient: APP, fee: '25' }] }), '/price');
    expect(price.status).toBe(200);
    expect(Object.keys(price.body).sort()).toEqual(['details', 'fees']);
    expect(Object.keys(price.body.details).sort()).toEqual(
      ['currencyIn', 'currencyOut', 'operation', 'rate', 'recipient', 'sender', 'slippageTolerance', 'swapImpact', 'timeEstimate', 'totalImpact', 'userBalance'].sort(),
    );
    expect(price.body.fees.app.amount).toBe('250000');
    expect(JSON.stringify(price.body)).not.toContain('"data"');
    expect(sim.control.requests.listByStatus('waiting').length).toBe(waitingBefore);

    for (const [field, value] of [
      ['slippageTolerance', '1.5'],
      ['slippageTolerance', '-1'],
      ['slippageTolerance', '10001'],
      ['slippageTolerance', 50],
      ['latePaymentSlippageTolerance', 'abc'],
      ['latePaymentSlippageTolerance', '1e3'],
    ] as const) {
      const bad = await quote(usdcBridge({ [field]: value }), '/price');
      expect(bad.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(bad.body).toMatchObject({ errorCode: 'INVALID_SLIPPAGE_TOLERANCE', statusCode: 400 });
      expect(bad.body.message).toContain(field);
    }
    for (const ok of ['0', '10000', '75']) expect((await quote(usdcBridge({ slippageTolerance: ok }), '/price')).status).toBe(200);
  });

  it('the older POST /quote answers the /quote/v2 shape and creates the request', async () => {
    const older = await quote(usdcBridge(), '/quote');
    expect(older.status).toBe(200);
    expect(Object.keys(older.body).sort()).toEqual(['details', 'fees', 'protocol', 'steps']);
    const requestId = older.body.steps.at(-1).requestId;
    expect(sim.control.requests.get(requestId)?.status).toBe('waiting');
    const bad = await quote(usdcBridge({ slippageTolerance: '0.5' }), '/quote');
    expect(bad.body.errorCode).toBe('INVALID_SLIPPAGE_TOLERANCE');
  });

  it('bad option values are 4xx with an errorCode, never a 500', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ appFees: [{ recipient: 'not-an-address', fee: '10' }] }, 'INVALID_ADDRESS'],
      [{ appFees: [{ recipient: APP, fee: '1.5' }] }, 'INVALID_INPUT_PARAMS'],
      [{ appFees: [{ recipient: APP, fee: '10001' }] }, 'INVALID_INPUT_PARAMS'],
      [{ appFees: 'x' }, 'INVALID_INPUT_PARAMS'],
      [{ fixedRate: '0.01' }, 'INVALID_INPUT_PARAMS'],
      [{ topupGasAmount: '1000' }, 'INVALID_INPUT_PARAMS'],
      [{ subsidizeFees: true, sponsoredFeeComponents: ['gas'] }, 'INVALID_INPUT_PARAMS'],
      [{ appFees: [{ recipient: APP, fee: '9995' }], tradeType: 'EXACT_OUTPUT' }, 'AMOUNT_TOO_LOW'],
    ];
    for (const [overrides, errorCode] of cases) {
      const response = await quote(usdcBridge(overrides));
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.errorCode, JSON.stringify(overrides)).toBe(errorCode);
    }
  });
});
