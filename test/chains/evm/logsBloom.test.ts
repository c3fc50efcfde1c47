import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEventTopics, keccak256, toHex, type Hex } from 'viem';
import { depositoryArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { logsBloomFilter } from '../../../src/chains/evm/logsBloom';
import type { RunningSimulator } from '../../../src/simulator';
import { publicClientFor } from '../../support/bridgeClient';
import { evmChainOf } from '../../support/evmChainOf';
import { quoteAndDepositNative } from '../../support/quoteAndDepositNative';
import { sharedTestSimulator } from '../../support/sharedTestSimulator';

const DEPOSIT_TOPIC = encodeEventTopics({ abi: depositoryArtifact.abi, eventName: 'Deposit' })[0]!;

describe('logsBloomFilter, against the blocks Anvil mines', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('says yes for the block holding a deposit and no wherever Anvil has no Deposit log of the depository', async () => {
    const origin = sim.chains[0]!.id;
    const destination = sim.chains[1]!.id;
    const { depositBlock } = await quoteAndDepositNative(sim, 1, { origin, destination });
    const depository = evmChainOf(sim, origin).contractAddresses.depository;
    const client = publicClientFor(sim, origin);

    const withDeposit = await client.getBlock({ blockNumber: depositBlock });
    const mayHoldDeposits = logsBloomFilter([depository, DEPOSIT_TOPIC]);
    expect(mayHoldDeposits(withDeposit.logsBloom)).toBe(true);
    // an address and a topic no contract emits: the bloom rules them out
    expect(logsBloomFilter([depository, keccak256(toHex('NoSuchEvent()'))])(withDeposit.logsBloom)).toBe(false);

    // every block of the chain so far: "no" is never said of a block that has such a log
    let ruledOut = 0;
    for (let number = 0n; number <= depositBlock; number++) {
      const block = await client.getBlock({ blockNumber: number });
      const logs = await client.getLogs({ address: depository, blockHash: block.hash!, event: depositoryArtifact.abi.find((item) => item.type === 'event' && item.name === 'Deposit') as never });
      const mayHold = mayHoldDeposits(block.logsBloom);
      if (logs.length > 0) expect(mayHold, `block ${number}`).toBe(true);
      if (!mayHold) ruledOut++;
    }
    // the deployment's blocks hold no deposit, and the bloom says so for them
    expect(ruledOut).toBeGreaterThan(0);
  });

  it('a missing or malformed bloom may hold anything', () => {
    const item = '0x0000000000000000000000000000000000000001' as Hex;
    const mayHold = logsBloomFilter([item]);
    expect(mayHold(null)).toBe(true);
    expect(mayHold('0x00')).toBe(true);
    expect(mayHold(`0x${'00'.repeat(256)}`)).toBe(false);
    expect(mayHold(`0x${'ff'.repeat(256)}`)).toBe(true);
  });
});
