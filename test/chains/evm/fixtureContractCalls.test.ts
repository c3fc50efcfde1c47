import { describe, expect, it } from 'vitest';
import { decodeFunctionData, recoverTypedDataAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { editionMint1155Artifact, marketplaceOrderBookArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { coerceAbiValue, encodeFixtureCall, signContractMessage } from '../../../src/chains/evm/fixtureContractCalls';

/** Calls and signatures scenarios make on fixture contracts: JSON arguments coerced to the ABI's types. */
describe('fixture contract calls from JSON arguments', () => {
  const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex;
  const someone = privateKeyToAccount(KEY).address;

  it('integers as numbers or decimal strings, booleans, addresses in any case', () => {
    const data = encodeFixtureCall('EditionMint1155', 'configureSale', [false, '1000000000000000', 3]);
    expect(decodeFunctionData({ abi: editionMint1155Artifact.abi, data }).args).toEqual([false, 10n ** 15n, 3n]);
    const mint = encodeFixtureCall('EditionMint1155', 'mint', [someone.toLowerCase(), 2]);
    expect(decodeFunctionData({ abi: editionMint1155Artifact.abi, data: mint }).args).toEqual([someone, 2n]);
  });

  it('structs as objects, field by field, in the ABI order', () => {
    const order = { offerer: someone, token: someone, tokenId: 1, amount: 4, price: '4000', startTime: 0, endTime: 9, fulfiller: '0x0000000000000000000000000000000000000000', salt: 1 };
    const data = encodeFixtureCall('MarketplaceOrderBook', 'cancel', [{ ...order }]);
    const [decoded] = decodeFunctionData({ abi: marketplaceOrderBookArtifact.abi, data }).args as unknown as [Record<string, unknown>];
    expect(decoded).toMatchObject({ tokenId: 1n, price: 4000n, fulfiller: '0x0000000000000000000000000000000000000000' });
  });

  it('what does not fit says where', () => {
    expect(() => encodeFixtureCall('EditionMint1155', 'mint', [someone])).toThrow(/EditionMint1155\.mint takes 2 argument\(s\) \(address to, uint256 quantity\); got 1/);
    expect(() => encodeFixtureCall('EditionMint1155', 'mint', [someone, '1.5'])).toThrow(/argument quantity: uint256 wants an integer/);
    expect(() => encodeFixtureCall('EditionMint1155', 'fly', [])).toThrow(/EditionMint1155 has no function fly \(it has .*mint/);
    expect(() => encodeFixtureCall('Nothing', 'fly', [])).toThrow(/no contract ABI named Nothing/);
    expect(() => coerceAbiValue({ type: 'tuple', name: 'o', components: [{ name: 'a', type: 'uint256' }] }, { a: 1, b: 2 }, 'o')).toThrow(/o: no field b/);
    expect(() => coerceAbiValue({ type: 'bool', name: 'b' }, 'yes', 'b')).toThrow(/bool wants true or false/);
  });

  it('an EIP-712 order is signed for the contract and chain, and split into v, r, s', async () => {
    const market = '0x00000000000000000000000000000000000000aa';
    const message = { offerer: someone, token: market, tokenId: '1', amount: 4, price: 4000, startTime: 0, endTime: 9, fulfiller: market, salt: 7 };
    const signed = await signContractMessage({ client: undefined as never, chainId: 42161 }, KEY, { fixture: 'MarketplaceOrderBook', address: market }, 'Order', message);
    const signer = await recoverTypedDataAddress({
      domain: { name: 'MarketplaceOrderBook', version: '1', chainId: 42161, verifyingContract: market },
      types: {
        Order: ['offerer', 'token', 'tokenId', 'amount', 'price', 'startTime', 'endTime', 'fulfiller', 'salt'].map((name) => ({ name, type: ['offerer', 'token', 'fulfiller'].includes(name) ? 'address' : 'uint256' })),
      },
      primaryType: 'Order',
      message: { ...message, tokenId: 1n, amount: 4n, price: 4000n, startTime: 0n, endTime: 9n, salt: 7n },
      signature: signed.signature as Hex,
    });
    expect(signer).toBe(someone);
    expect(signed.parts.v === 27 || signed.parts.v === 28).toBe(true);
    expect(signed.signature).toBe(`${signed.parts.r}${String(signed.parts.s).slice(2)}${Number(signed.parts.v).toString(16)}`);
    await expect(signContractMessage({ client: undefined as never, chainId: 1 }, KEY, { fixture: 'CallRecorder', address: market }, 'Order', {})).rejects.toThrow(/CallRecorder checks no Order signature here \(known: Order \(MarketplaceOrderBook\), Permit \(PermitToken\), UserOperation \(MinimalEntryPoint\)\)/);
  });
});
