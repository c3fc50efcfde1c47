import { keccak256, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { evmCallKind } from '../../../src/chains/evm/front/evmCallKinds';
import { planEvmCallReplay, type JournaledEvmCall } from '../../../src/chains/evm/front/planEvmCallReplay';

const rawA = '0x02f86a0180' as Hex;
const rawB = '0x02f86a0181' as Hex;
const send = (raw: Hex, head: number): JournaledEvmCall => ({ head, method: 'eth_sendRawTransaction', params: [raw] });
const setBalance = (head: number, value: string): JournaledEvmCall => ({ head, method: 'anvil_setBalance', params: ['0x00000000000000000000000000000000000000aa', value] });

describe('evmCallKind: what the front journals', () => {
  it('journals transactions and cheats, never reads, signatures or subscriptions', () => {
    expect(['eth_call', 'eth_getBalance', 'eth_subscribe', 'eth_newFilter', 'eth_sign', 'eth_signTypedData_v4', 'personal_sign', 'anvil_nodeInfo'].map(evmCallKind)).toEqual(Array(8).fill('read'));
    expect(['eth_sendRawTransaction', 'eth_sendTransaction'].map(evmCallKind)).toEqual(['transaction', 'transaction']);
    expect(['anvil_setBalance', 'hardhat_setCode', 'evm_increaseTime', 'anvil_impersonateAccount'].map(evmCallKind)).toEqual(Array(4).fill('state'));
    expect(['evm_setAutomine', 'evm_setIntervalMining'].map(evmCallKind)).toEqual(['miningMode', 'miningMode']);
    expect(['evm_mine', 'anvil_mine', 'evm_revert', 'anvil_reorg', 'anvil_dropTransaction'].map(evmCallKind)).toEqual(Array(5).fill('chainMove'));
  });
});

describe('planEvmCallReplay: the journaled calls around the journaled blocks', () => {
  it('makes a cheat again just before the block that followed it, and skips what the blocks already hold', () => {
    const plan = planEvmCallReplay([setBalance(3, '0x1'), send(rawA, 3), { head: 4, method: 'evm_mine' }, setBalance(6, '0x2')], 9, new Set([keccak256(rawA)]));
    expect([...plan.beforeBlock.entries()]).toEqual([
      [4, [{ method: 'anvil_setBalance', params: ['0x00000000000000000000000000000000000000aa', '0x1'] }]],
      [7, [{ method: 'anvil_setBalance', params: ['0x00000000000000000000000000000000000000aa', '0x2'] }]],
    ]);
    expect(plan.tail).toEqual([]);
    expect(plan.automineAtTail).toBe(true);
  });

  it('makes again, in order, every call at or after the last journaled block: the transaction a kill took, and the mining it was under', () => {
    const plan = planEvmCallReplay([{ head: 9, method: 'evm_setAutomine', params: [false] }, send(rawA, 9), { head: 9, method: 'evm_mine' }], 9, new Set());
    expect(plan.tail.map((call) => call.method)).toEqual(['evm_setAutomine', 'eth_sendRawTransaction', 'evm_mine']);
    expect(plan.beforeBlock.size).toBe(0);
  });

  it('sends again a transaction no journaled block holds (it was in the pool) before the calls after the last block, with automine as it was left', () => {
    const plan = planEvmCallReplay(
      [{ head: 2, method: 'evm_setAutomine', params: [false] }, send(rawB, 2), { head: 5, method: 'evm_setIntervalMining', params: [12] }, setBalance(9, '0x3')],
      9,
      new Set(),
    );
    expect(plan.automineAtTail).toBe(false);
    expect(plan.intervalMining).toBe(12);
    expect(plan.tail).toEqual([{ method: 'eth_sendRawTransaction', params: [rawB] }, { method: 'anvil_setBalance', params: ['0x00000000000000000000000000000000000000aa', '0x3'] }]);
  });
});
