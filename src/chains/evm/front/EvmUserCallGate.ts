import type { JsonRpcCall } from './evmCallKinds';

/**
 * The one place a user's state-changing calls pass before the front journals and forwards them
 * (transactions and cheats sent to a chain's `rpcUrl` / `wsRpcUrl`, HTTP or websocket): where a
 * fault step can hold a user's transaction back (delay), keep calls for later (reorder) or refuse
 * to pass one on (drop, so it is neither journaled nor sent). `admit` resolves when the calls may
 * go on. Today every call goes on at once (`admitEveryUserCall`).
 */
export interface EvmUserCallGate {
  admit(calls: readonly JsonRpcCall[]): Promise<void> | void;
}

export const admitEveryUserCall: EvmUserCallGate = { admit: () => undefined };
