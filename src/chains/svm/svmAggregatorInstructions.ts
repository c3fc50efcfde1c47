import { AccountRole, type Address, type Instruction, type TransactionSigner } from '@solana/kit';
import { SVM_AGGREGATOR_PROGRAM, svmAggregatorSharedAccount, TOKEN_PROGRAM } from '../../nodes/svm';
import type { SvmRouteHop } from './planSvmAggregatorRoute';

/**
 * The aggregator's route instructions (SPEC §4.6): one instruction of the aggregator's program per
 * hop, naming the accounts a real aggregator's hop names — the token program, the user (signer),
 * the source and destination token accounts (the user's own for the first hop, the aggregator's
 * shared intermediate accounts after it), the venue's program, the pool's state, its authority
 * and its two vaults — with a UTF-8 description of the hop as data. The aggregator's program is a
 * copy of SPL Memo v1 (see `writeSvmAggregatorGenesis`): the instructions run for real, with all
 * their accounts loaded, and move nothing.
 */
export function aggregatorRouteInstructions(params: {
  user: TransactionSigner;
  /** The user's token account of the route's first token. */
  userSource: Address;
  hops: readonly SvmRouteHop[];
}): Instruction[] {
  const { user, userSource, hops } = params;
  return hops.map((hop, index) => {
    const { pool } = hop;
    const [vaultIn, vaultOut] = hop.tokenIn === pool.tokenA ? [pool.vaultA, pool.vaultB] : [pool.vaultB, pool.vaultA];
    return {
      programAddress: SVM_AGGREGATOR_PROGRAM,
      accounts: [
        { address: TOKEN_PROGRAM, role: AccountRole.READONLY },
        { address: user.address, role: AccountRole.READONLY_SIGNER, signer: user },
        { address: index === 0 ? userSource : svmAggregatorSharedAccount(hop.tokenIn), role: AccountRole.WRITABLE },
        { address: svmAggregatorSharedAccount(hop.tokenOut), role: AccountRole.WRITABLE },
        { address: pool.program, role: AccountRole.READONLY },
        { address: pool.state, role: AccountRole.WRITABLE },
        { address: pool.authority, role: AccountRole.READONLY },
        { address: vaultIn, role: AccountRole.WRITABLE },
        { address: vaultOut, role: AccountRole.WRITABLE },
      ],
      data: new TextEncoder().encode(`hop ${index + 1}/${hops.length} ${hop.tokenIn}>${hop.tokenOut}`),
    } as Instruction;
  });
}
