import { describe, expect, it } from 'vitest';
import { BvmLedgerState } from '../../../src/nodes/bvm/BvmLedgerState';
import type { BvmBlock } from '../../../src/nodes/bvm/bvmLedgerTypes';

describe('BvmLedgerState.copy (what a snapshot keeps)', () => {
  it('copies a chain of 300,000 blocks (a spread into push overflowed the call stack there: a 500 on POST /admin/chains/:id/snapshot)', () => {
    const state = new BvmLedgerState();
    for (let height = 0; height < 300_000; height++) state.blocks.push({ height } as unknown as BvmBlock);
    const copy = state.copy();
    expect(copy.blocks).toHaveLength(300_000);
    expect(copy.blocks[299_999]).toBe(state.blocks[299_999]);
    copy.blocks.pop();
    expect(state.blocks).toHaveLength(300_000);
  });
});
