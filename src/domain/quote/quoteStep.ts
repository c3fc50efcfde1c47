/** One step of a quote (SPEC §2.2), as a chain builds it. */
export interface QuoteStep {
  id: 'approve' | 'deposit';
  action: string;
  description: string;
  kind: 'transaction' | 'signature';
  /** SPEC §2.2 `depositAddress`: set when the user pays into a deposit address. */
  depositAddress?: string;
  items: Array<{ status: 'incomplete'; data: Record<string, unknown>; withCheck: boolean }>;
}
