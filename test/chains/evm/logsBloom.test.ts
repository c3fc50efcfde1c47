import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEventTopics, keccak256, toHex, type Hex } from 'viem';
import { depositoryArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { logsBloomMayContain } from '../../../src/chains/evm/logsBloom';
import type { RunningSimulator } from '../../../src/simulator';
import { publicClientFor } from '../../support/bridgeClient';
import { evmChainOf } from '../../support/evmChainOf';
import { quoteAndDepositNative } from '../../support/quoteAndDepositNative';
import { startTestSimulator } from '../../support/startTestSimulator';

const DEPOSIT_TOPIC = encodeEventTopics({ abi: depositoryArtifact.abi, eventName: 'Deposit' })[0]!;

describe('logsBloomMayContain, against the blocks Anvil mines', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator();
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
    expect(logsBloomMayContain(withDeposit.logsBloom, [depository, DEPOSIT_TOPIC])).toBe(true);
    // an address and a topic no contract emits: the bloom rules them out
    expect(logsBloomMayContain(withDeposit.logsBloom, [depository, keccak256(toHex('NoSuchEvent()'))])).toBe(false);

    // every block of the chain so far: "no" is never said of a block that has such a log
    let ruledOut = 0;
    for (let number = 0n; number <= depositBlock; number++) {
      const block = await client.getBlock({ blockNumber: number });
      const logs = await client.getLogs({ address: depository, blockHash: block.hash!, event: depositoryArtifact.abi.find((item) => item.type === 'event' && item.name === 'Deposit') as never });
      const mayHold = logsBloomMayContain(block.logsBloom, [depository, DEPOSIT_TOPIC]);
      if (logs.length > 0) expect(mayHold, `block ${number}`).toBe(true);
      if (!mayHold) ruledOut++;
    }
    // the deployment's blocks hold no deposit, and the bloom says so for them
    expect(ruledOut).toBeGreaterThan(0);
  });

  it('a missing or malformed bloom may hold anything', () => {
    const item = '0x0000000000000000000000000000000000000001' as Hex;
    expect(logsBloomMayContain(null, [item])).toBe(true);
    expect(logsBloomMayContain('0x00', [item])).toBe(true);
    expect(logsBloomMayContain(`0x${'00'.repeat(256)}`, [item])).toBe(false);
  });
});
