import { CurrencySearchSchema } from '../../../domain/chain/currencySearch';
import { ClaimBodySchema, ClaimPathSchema, ClaimSignatureBodySchema, ClaimsQuerySchema, WalletPathSchema } from '../../routes/appFeeRoutes';
import { AuthorizeBodySchema } from '../../routes/authorizeRoutes';
import { OptionalChainQuerySchema, RequiredChainQuerySchema } from '../../routes/chainLookupRoutes';
import { ConfigQuerySchema } from '../../routes/configRoutes';
import { TokenPriceQuerySchema } from '../../routes/currencyRoutes';
import { ReindexBodySchema } from '../../routes/depositAddressRoutes';
import { IndexBodySchema, SingleBodySchema } from '../../routes/transactionRoutes';
import { BODY_ERRORS, mergeErrors, type ApiOperation } from '../apiOperation';
import { AppFeeClaimPaidSchema, AuthorizeResponseSchema, MessageResponseSchema } from '../schemas/actionResponseSchemas';
import {
  AppFeeBalancesSchema,
  AppFeeClaimStepsSchema,
  AppFeeClaimsSchema,
  ChainsHealthSchema,
  ChainsLiquiditySchema,
  ConfigSchema,
  ConfigV2Schema,
  CurrenciesV1Schema,
  CurrenciesV2Schema,
  ReindexSchema,
  SwapSourcesSchema,
  TokenPriceSchema,
  TokenPriceV2Schema,
} from '../schemas/publishedLookupSchemas';

const CHAIN_QUERY_ERRORS = { 400: ['INVALID_INPUT_PARAMS', 'UNSUPPORTED_CHAIN'] };
const CHAIN_LOOKUP_ERRORS = { 400: ['INVALID_INPUT_PARAMS', 'UNSUPPORTED_CHAIN', 'UNSUPPORTED_CURRENCY', 'UNSUPPORTED_ON_CHAIN'] };
/** A wallet no chain of the simulator takes is INVALID_ADDRESS (SPEC §7.1's code for an address that fails validation): a check its schema cannot express. */
const WALLET_ERRORS = { 400: ['INVALID_INPUT_PARAMS', 'INVALID_ADDRESS'] };
const APP_FEE_CLAIM_ERRORS = mergeErrors(BODY_ERRORS, WALLET_ERRORS, { 400: ['INSUFFICIENT_APP_FEE_BALANCE', 'UNSUPPORTED_CHAIN', 'UNSUPPORTED_CURRENCY'] });

/** SPEC §4.7 (the look-ups and operations named without a shape), at the official SDK's published paths. */
export const LOOKUP_OPERATIONS: readonly ApiOperation[] = [
  { method: 'post', path: '/currencies/v1', operationId: 'postCurrenciesV1', summary: 'Currencies (grouped across chains)', tag: 'Currencies', body: CurrencySearchSchema, response: CurrenciesV1Schema, errors: BODY_ERRORS },
  { method: 'post', path: '/currencies/v2', operationId: 'postCurrenciesV2', summary: 'Currencies (a flat list)', tag: 'Currencies', body: CurrencySearchSchema, response: CurrenciesV2Schema, errors: BODY_ERRORS },
  { method: 'get', path: '/currencies/token/price', operationId: 'getTokenPrice', summary: 'A token price in USD (a number)', tag: 'Currencies', query: TokenPriceQuerySchema, response: TokenPriceSchema, errors: CHAIN_LOOKUP_ERRORS },
  { method: 'get', path: '/currencies/token/price/v2', operationId: 'getTokenPriceV2', summary: 'A token price in USD (a decimal string)', tag: 'Currencies', query: TokenPriceQuerySchema, response: TokenPriceV2Schema, errors: CHAIN_LOOKUP_ERRORS },
  { method: 'get', path: '/swap-sources', operationId: 'getSwapSources', summary: 'The swap sources (values of includedOriginSwapSources)', tag: 'Chains', query: OptionalChainQuerySchema, response: SwapSourcesSchema, errors: CHAIN_QUERY_ERRORS },
  { method: 'get', path: '/chains/liquidity', operationId: 'getChainsLiquidity', summary: "The solver's balances on a chain", tag: 'Chains', query: RequiredChainQuerySchema, response: ChainsLiquiditySchema, errors: CHAIN_QUERY_ERRORS },
  { method: 'get', path: '/chains/health', operationId: 'getChainsHealth', summary: 'Whether a chain (or every chain) answers now', tag: 'Chains', query: OptionalChainQuerySchema, response: ChainsHealthSchema, errors: CHAIN_QUERY_ERRORS },
  { method: 'get', path: '/config', operationId: 'getConfig', summary: 'What the solver (and a user) can bridge between two chains', tag: 'Chains', query: ConfigQuerySchema, response: ConfigSchema, errors: CHAIN_LOOKUP_ERRORS },
  { method: 'get', path: '/config/v2', operationId: 'getConfigV2', summary: 'The bridge config by currency id, with the fill fee', tag: 'Chains', query: ConfigQuerySchema, response: ConfigV2Schema, errors: CHAIN_LOOKUP_ERRORS },
  {
    method: 'post', path: '/transactions/deposit-address/reindex', operationId: 'postDepositAddressReindex', summary: 'Index a deposit address now and report its balances', tag: 'Transactions',
    body: ReindexBodySchema, response: ReindexSchema, errors: mergeErrors(BODY_ERRORS, CHAIN_LOOKUP_ERRORS, { 404: ['DEPOSIT_ADDRESS_NOT_FOUND'] }),
  },
  { method: 'post', path: '/transactions/index', operationId: 'postTransactionsIndex', summary: 'A deposit hash to index now', tag: 'Transactions', body: IndexBodySchema, response: MessageResponseSchema, errors: mergeErrors(BODY_ERRORS, { 400: ['UNSUPPORTED_CHAIN'] }) },
  { method: 'post', path: '/transactions/single', operationId: 'postTransactionsSingle', summary: 'A sent step transaction to index now', tag: 'Transactions', body: SingleBodySchema, response: MessageResponseSchema, errors: mergeErrors(BODY_ERRORS, { 400: ['UNSUPPORTED_CHAIN'] }) },
  { method: 'get', path: '/app-fees/{wallet}/balances', operationId: 'getAppFeeBalances', summary: 'SPEC §1.6: app fee balances of a wallet', tag: 'App fees', params: WalletPathSchema, response: AppFeeBalancesSchema, errors: WALLET_ERRORS },
  { method: 'post', path: '/app-fees/{wallet}/claim', operationId: 'postAppFeeClaim', summary: 'SPEC §1.6: claim app fees (answers the signature step)', tag: 'App fees', params: WalletPathSchema, body: ClaimBodySchema, response: AppFeeClaimStepsSchema, errors: APP_FEE_CLAIM_ERRORS },
  {
    method: 'post', path: '/app-fees/{wallet}/claims/{claimId}/signature', operationId: 'postAppFeeClaimSignature', summary: 'The signed claim: the solver pays it on chain', tag: 'App fees',
    params: ClaimPathSchema, body: ClaimSignatureBodySchema, response: AppFeeClaimPaidSchema,
    errors: mergeErrors(APP_FEE_CLAIM_ERRORS, { 400: ['INVALID_SIGNATURE', 'CLAIM_PAYMENT_FAILED'], 404: ['CLAIM_NOT_FOUND'], 409: ['CLAIM_ALREADY_SIGNED', 'CLAIM_PAYMENT_PENDING'] }),
  },
  { method: 'get', path: '/app-fees/{wallet}/claims', operationId: 'getAppFeeClaims', summary: 'The app fee claims of a wallet, newest first', tag: 'App fees', params: WalletPathSchema, query: ClaimsQuerySchema, response: AppFeeClaimsSchema, errors: WALLET_ERRORS },
  {
    method: 'post', path: '/authorize', operationId: 'postAuthorize', summary: 'SPEC §4.7: the exchange flow nonce mapping (typed-data domain version 2)', tag: 'Execution', body: AuthorizeBodySchema, response: AuthorizeResponseSchema,
    errors: mergeErrors(BODY_ERRORS, { 400: ['INVALID_ADDRESS', 'INVALID_SIGNATURE', 'UNSUPPORTED_AUTHORIZATION_VERSION'], 404: ['REQUEST_NOT_FOUND'], 409: ['NONCE_ALREADY_USED'] }),
  },
];
