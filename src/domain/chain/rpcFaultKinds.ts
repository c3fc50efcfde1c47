/** The quote-time RPC faults (`POST /admin/faults`): a chain's RPC times out, or answers an error (SPEC §7.1 REQUEST_TIMED_OUT, RPC_HTTP_ERROR). */
export const RPC_FAULT_KINDS = ['rpc-timeout', 'rpc-error'] as const;
export type RpcFaultKind = (typeof RPC_FAULT_KINDS)[number];
