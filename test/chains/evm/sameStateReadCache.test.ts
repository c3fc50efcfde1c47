import { describe, expect, it } from 'vitest';
import { SameStateReadCache } from '../../../src/chains/evm/SameStateReadCache';

function counter() {
  let calls = 0;
  return {
    load: (value: unknown) => () => {
      calls += 1;
      return Promise.resolve(value);
    },
    get calls() {
      return calls;
    },
  };
}

describe('SameStateReadCache', () => {
  it('an equal state read on an unchanged state answers from the first; another read, block or state does not', async () => {
    const reads = new SameStateReadCache();
    const node = counter();
    expect(await reads.read('eth_getBalance', ['0xabc', 'latest'], node.load(1n))).toBe(1n);
    expect(await reads.read('eth_getBalance', ['0xabc', 'latest'], node.load(2n))).toBe(1n);
    expect(node.calls).toBe(1);
    // another address; a pinned block; a method that is no state read
    await reads.read('eth_getBalance', ['0xdef', 'latest'], node.load(3n));
    await reads.read('eth_getBalance', ['0xabc', '0x10'], node.load(4n));
    await reads.read('eth_getBlockByNumber', ['latest', false], node.load(5n));
    await reads.read('eth_getBlockByNumber', ['latest', false], node.load(5n));
    expect(node.calls).toBe(5);
    reads.stateChanged();
    expect(await reads.read('eth_getBalance', ['0xabc', 'latest'], node.load(6n))).toBe(6n);
  });

  it('a read that started before a state change is not kept for the new state', async () => {
    const reads = new SameStateReadCache();
    let release: (value: unknown) => void = () => undefined;
    const slow = reads.read('eth_call', [{ to: '0x1' }, 'latest'], () => new Promise((resolve) => (release = resolve)));
    reads.stateChanged();
    release('old state');
    expect(await slow).toBe('old state');
    expect(await reads.read('eth_call', [{ to: '0x1' }, 'latest'], () => Promise.resolve('new state'))).toBe('new state');
  });

  it('a failed read is not kept', async () => {
    const reads = new SameStateReadCache();
    await expect(reads.read('eth_estimateGas', [{ to: '0x1' }], () => Promise.reject(new Error('reverted')))).rejects.toThrow('reverted');
    expect(await reads.read('eth_estimateGas', [{ to: '0x1' }], () => Promise.resolve(21000n))).toBe(21000n);
  });

  it('knows which methods may write', () => {
    for (const method of ['eth_sendRawTransaction', 'eth_sendTransaction', 'anvil_setBalance', 'evm_mine', 'evm_setNextBlockTimestamp', 'anvil_reorg', 'hardhat_setCode'])
      expect(SameStateReadCache.mayWrite(method), method).toBe(true);
    for (const method of ['eth_getBalance', 'eth_call', 'eth_estimateGas', 'eth_getBlockByNumber', 'eth_chainId', 'net_version', 'anvil_nodeInfo'])
      expect(SameStateReadCache.mayWrite(method), method).toBe(false);
  });
});
