import { describe, expect, it } from 'vitest';
import { zeroAddress, type Address } from 'viem';
import { classifyRequest } from '../../../src/domain/quote/classifyRequest';
import type { Currency } from '../../../src/domain/chain/currency';
import { planRoute, type ChainLiquidity } from '../../../src/domain/quote/planRoute';

const currency = (chainId: number, symbol: string, address: Address, isNative = false): Currency => ({
  chainId,
  address,
  symbol,
  name: symbol,
  decimals: symbol === 'USDC' ? 6 : 18,
  isNative,
  logoURI: '',
  verified: true,
  priceUsdMicros: symbol === 'USDC' ? 1_000_000n : 3_000_000_000n,
});
const WETH_ADDRESS = '0x00000000000000000000000000000000000000e1' as Address;
const USDC_ADDRESS = '0x00000000000000000000000000000000000000c1' as Address;
const POOL = '0x00000000000000000000000000000000000000a1' as Address;
function chain(id: number): ChainLiquidity & { usdc: Currency } {
  const nativeCurrency = currency(id, 'ETH', zeroAddress, true);
  const wrappedNative = currency(id, 'WETH', WETH_ADDRESS);
  const usdc = currency(id, 'USDC', USDC_ADDRESS);
  return { nativeCurrency, wrappedNative, usdc, pools: [{ address: POOL, token0: wrappedNative, token1: usdc, feeBps: 30n }] };
}
const A = chain(1);
const B = chain(8453);

describe('classifyRequest (SPEC §1.2)', () => {
  const classify = (origin: ChainLiquidity & { usdc: Currency }, inKey: 'nativeCurrency' | 'wrappedNative' | 'usdc', destination: typeof A, outKey: typeof inKey, callCount = 0) =>
    classifyRequest({
      originChainId: origin.nativeCurrency.chainId,
      destinationChainId: destination.nativeCurrency.chainId,
      currencyIn: origin[inKey],
      currencyOut: destination[outKey],
      wrappedNativeAddress: destination.wrappedNative.address,
      callCount,
    });
  it.each([
    [A, 'nativeCurrency', B, 'nativeCurrency', 0, 'Bridge'],
    [A, 'usdc', B, 'usdc', 0, 'Bridge'],
    [A, 'nativeCurrency', B, 'usdc', 0, 'Crosschain Swap'],
    [A, 'nativeCurrency', B, 'wrappedNative', 0, 'Crosschain Swap'],
    [A, 'nativeCurrency', A, 'usdc', 0, 'Same-chain Swap'],
    [A, 'usdc', A, 'wrappedNative', 0, 'Same-chain Swap'],
    [A, 'nativeCurrency', A, 'nativeCurrency', 0, 'Send'],
    [A, 'usdc', A, 'usdc', 0, 'Send'],
    [A, 'nativeCurrency', A, 'wrappedNative', 0, 'Wrap'],
    [A, 'wrappedNative', A, 'nativeCurrency', 0, 'Unwrap'],
    [A, 'nativeCurrency', B, 'nativeCurrency', 1, 'Call'],
    [A, 'usdc', A, 'usdc', 2, 'Call'],
  ] as const)('%#: %s → %s is a %s', (origin, inKey, destination, outKey, calls, type) => {
    expect(classify(origin, inKey, destination, outKey, calls)).toBe(type);
  });
});

describe('planRoute: what the solver spends and does on the destination', () => {
  it('the same symbol is a transfer of it', () => {
    expect(planRoute(A.usdc, B.usdc, A, B)).toEqual({ ok: true, plan: { solverCurrency: B.usdc, action: { kind: 'transfer' } } });
  });
  it('native to wrapped (any chains) is a wrap, wrapped to native an unwrap', () => {
    expect(planRoute(A.nativeCurrency, B.wrappedNative, A, B)).toMatchObject({ ok: true, plan: { solverCurrency: B.nativeCurrency, action: { kind: 'wrap' } } });
    expect(planRoute(A.wrappedNative, A.nativeCurrency, A, A)).toMatchObject({ ok: true, plan: { solverCurrency: A.wrappedNative, action: { kind: 'unwrap' } } });
  });
  it('anything else swaps through the pool that holds the output, unwrapping for native', () => {
    expect(planRoute(A.nativeCurrency, B.usdc, A, B)).toMatchObject({
      ok: true,
      plan: { solverCurrency: B.wrappedNative, action: { kind: 'swap', pool: POOL, tokenIn: WETH_ADDRESS, tokenOut: USDC_ADDRESS, unwrapOutput: false } },
    });
    expect(planRoute(A.usdc, B.nativeCurrency, A, B)).toMatchObject({
      ok: true,
      plan: { solverCurrency: B.usdc, action: { kind: 'swap', tokenIn: USDC_ADDRESS, tokenOut: WETH_ADDRESS, unwrapOutput: true } },
    });
  });
  it('no pool holding the output: no route', () => {
    expect(planRoute(A.nativeCurrency, B.usdc, A, { ...B, pools: [] })).toMatchObject({ ok: false });
  });
  it('a chain that pays its native from inventory (BVM: no pools, no wrapped native) takes any origin asset as a transfer of its native; its other currencies still need a pool', () => {
    const btc = currency(8253038, 'BTC', 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8' as Address, true);
    const bitcoin: ChainLiquidity = { nativeCurrency: btc, wrappedNative: btc, pools: [], inventory: [btc] };
    expect(planRoute(A.nativeCurrency, btc, A, bitcoin)).toEqual({ ok: true, plan: { solverCurrency: btc, action: { kind: 'transfer' } } });
    expect(planRoute(A.usdc, btc, A, bitcoin)).toEqual({ ok: true, plan: { solverCurrency: btc, action: { kind: 'transfer' } } });
    expect(planRoute(A.nativeCurrency, B.nativeCurrency, A, { ...B, pools: [] })).toMatchObject({ ok: true, plan: { action: { kind: 'transfer' } } });
    expect(planRoute(A.usdc, B.nativeCurrency, A, { ...B, pools: [] })).toMatchObject({ ok: false });
  });
  it('a chain without pools (SVM, exchange) pays its native and USDC from inventory whatever the origin asset; a currency it does not keep has no route; a pool, where one holds the output, wins', () => {
    const sol = currency(792703809, 'SOL', '11111111111111111111111111111111' as Address, true);
    const wsol = currency(792703809, 'WSOL', 'So11111111111111111111111111111111111111112' as Address, false);
    const svmUsdc = currency(792703809, 'USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address, false);
    const meme = currency(792703809, 'MEME', 'MEMEmemememememememememememememememememem1' as Address, false);
    const solana: ChainLiquidity = { nativeCurrency: sol, wrappedNative: wsol, pools: [], inventory: [sol, svmUsdc] };
    expect(planRoute(A.nativeCurrency, sol, A, solana)).toEqual({ ok: true, plan: { solverCurrency: sol, action: { kind: 'transfer' } } });
    expect(planRoute(A.usdc, sol, A, solana)).toEqual({ ok: true, plan: { solverCurrency: sol, action: { kind: 'transfer' } } });
    expect(planRoute(A.nativeCurrency, svmUsdc, A, solana)).toEqual({ ok: true, plan: { solverCurrency: svmUsdc, action: { kind: 'transfer' } } });
    expect(planRoute(A.nativeCurrency, meme, A, solana)).toMatchObject({ ok: false, reason: expect.stringContaining('inventory') });
    expect(planRoute(A.nativeCurrency, B.usdc, A, { ...B, inventory: [B.usdc] })).toMatchObject({ ok: true, plan: { action: { kind: 'swap', pool: POOL } } });
  });
});
