import { describe, expect, it } from 'vitest';
import { encodeFunctionData, erc20Abi, type Abi, type AbiFunction, type AbiParameter } from 'viem';
import { contractArtifacts } from '../../../fixtures/contracts/artifacts.generated';
import { encodeCall } from '../../../src/chains/evm/encodeCall';

/** A value of ABI type `parameter`, different for each `n` (every type the fixture contracts take). */
function valueOf(parameter: AbiParameter, n: number): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(parameter.type);
  if (array) {
    const length = array[2] ? Number(array[2]) : (n % 3) + 1;
    return Array.from({ length }, (_, i) => valueOf({ ...parameter, type: array[1]! }, n + i + 1));
  }
  if (parameter.type === 'tuple') {
    const components = (parameter as { components: readonly AbiParameter[] }).components;
    return components.every((component) => component.name) ? Object.fromEntries(components.map((component, i) => [component.name, valueOf(component, n + i)])) : components.map((component, i) => valueOf(component, n + i));
  }
  if (parameter.type === 'address') return `0x${(n + 1).toString(16).padStart(40, 'a')}`;
  if (parameter.type === 'bool') return n % 2 === 0;
  if (parameter.type === 'string') return `text ${n}`;
  if (parameter.type === 'bytes') return `0x${'ab'.repeat(n % 40)}`;
  const fixedBytes = /^bytes(\d+)$/.exec(parameter.type);
  if (fixedBytes) return `0x${(n + 7).toString(16).padStart(2, '0').repeat(Number(fixedBytes[1]))}`;
  const integer = /^(u?)int(\d*)$/.exec(parameter.type);
  if (integer) {
    const magnitude = (BigInt(n) * 1_000_003n) % 2n ** BigInt(Number(integer[2] || 256) - 1);
    return integer[1] || n % 2 === 0 ? magnitude : -magnitude;
  }
  throw new Error(`no test value for ABI type ${parameter.type}`);
}

const abis: Array<[string, Abi]> = [...Object.entries(contractArtifacts).map(([name, artifact]) => [name, artifact.abi as Abi] as [string, Abi]), ['erc20Abi', erc20Abi]];

describe('encodeCall', () => {
  it("gives viem's encodeFunctionData bytes for every function of every fixture contract and the ERC-20 ABI, called twice (kept selector)", () => {
    let calls = 0;
    for (const [, abi] of abis) {
      const functions = abi.filter((item): item is AbiFunction => item.type === 'function');
      const overloaded = (name: string) => functions.filter((f) => f.name === name).length > 1;
      for (const [n, fn] of functions.entries()) {
        for (const round of [0, 1]) {
          const args = fn.inputs.map((input, i) => valueOf(input, n * 7 + i + round * 13));
          // an overloaded name is told apart by its arguments: viem picks the function, encodeCall leaves it to viem
          const parameters = { abi, functionName: fn.name, args } as Parameters<typeof encodeFunctionData>[0];
          if (overloaded(fn.name)) continue;
          expect(encodeCall(parameters), `${fn.name}`).toBe(encodeFunctionData(parameters));
          calls++;
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
  });

  it("leaves an overloaded name to viem, which picks the function by its arguments", () => {
    const abi = [
      { type: 'function', name: 'pay', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }], outputs: [] },
      { type: 'function', name: 'pay', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] },
    ] as const satisfies Abi;
    const to = `0x${'12'.repeat(20)}` as const;
    expect(encodeCall({ abi, functionName: 'pay', args: [to, 5n] })).toBe(encodeFunctionData({ abi, functionName: 'pay', args: [to, 5n] }));
    expect(encodeCall({ abi, functionName: 'pay', args: [to] })).toBe(encodeFunctionData({ abi, functionName: 'pay', args: [to] }));
    expect(encodeCall({ abi, functionName: 'pay', args: [to, 5n] })).not.toBe(encodeCall({ abi, functionName: 'pay', args: [to] }));
  });

  it('throws as viem does on arguments that do not fit the function', () => {
    const parameters = { abi: erc20Abi, functionName: 'transfer', args: [`0x${'12'.repeat(20)}`] } as unknown as Parameters<typeof encodeFunctionData>[0];
    expect(() => encodeFunctionData(parameters)).toThrow();
    expect(() => encodeCall(parameters)).toThrow();
  });
});
