import { z } from 'zod';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { ContractAbiRef } from '../chains/capabilities/FixtureContractsCapability';
import { requireCapability } from '../chains/capabilities/requireCapability';
import type { CallTxSchema } from './scenarioSchema';
import { chainContracts, contractAddressOf, privateKeyOf, resolveAddress, resolveCurrency, ScenarioStepError, type ScenarioRunState } from './scenarioRunState';

/**
 * Contracts in scenarios: which contract a reference names, and the argument forms of its calls
 * (addresses by ref, the calldata of a nested call, a signature a test account makes), resolved
 * on one chain through the chain adapter, so no step sees a VM's encoding.
 */

/** A contract a step calls: its address and the ABI its calls are encoded against. */
export interface ContractTarget {
  address: string;
  abi: ContractAbiRef | undefined;
  /** How the timeline names it. */
  label: string;
  /** The fixture contract it is, when a step deployed it (signatures need it). */
  fixture: string | undefined;
}

/**
 * A contract by reference on `chain`: a name a `deployContract` step gave (`NAME` or
 * `contract:NAME`), one of the chain's own (`contract:pool`, `contract:serviceReceiver`: give
 * `abi`), a currency (`USDC`, `currency:WETH`: the token's ABI), or an address (give `abi`).
 */
export function resolveContract(state: Pick<ScenarioRunState, 'contracts'>, chain: ChainAdapter, ref: string, abi?: string): ContractTarget {
  const name = ref.startsWith('contract:') ? ref.slice('contract:'.length) : ref;
  const deployed = state.contracts.get(name);
  if (deployed) {
    const address = contractAddressOf(chain, name, state.contracts);
    return { address, abi: { fixture: abi ?? deployed.fixture }, label: name, fixture: deployed.fixture };
  }
  const own = chainContracts(chain);
  if (ref.startsWith('contract:') || own[name]) {
    return { address: contractAddressOf(chain, name, state.contracts), abi: abi ? { fixture: abi } : undefined, label: name, fixture: abi };
  }
  if (chain.isValidAddress(ref)) return { address: ref, abi: abi ? { fixture: abi } : undefined, label: ref, fixture: abi };
  const currency = resolveCurrency(chain, ref.startsWith('currency:') ? ref.slice('currency:'.length) : ref);
  if (currency.isNative) throw new ScenarioStepError(`${ref} is chain ${chain.chainId}'s native currency: it has no contract to call`);
  return { address: currency.address, abi: abi ? { fixture: abi } : { currency }, label: currency.symbol, fixture: abi };
}

function abiOf(target: ContractTarget): ContractAbiRef {
  if (!target.abi) throw new ScenarioStepError(`say which ABI encodes calls to ${target.label} (abi: a contract name of fixtures/contracts)`);
  return target.abi;
}

const NestedCall = z.object({ contract: z.string().min(1), function: z.string().min(1), args: z.array(z.unknown()).default([]), abi: z.string().optional() }).strict();
const SignForm = z
  .object({
    sign: z.object({ contract: z.string().min(1), type: z.string().min(1), signer: z.union([z.number().int().min(0), z.string().min(1)]), message: z.record(z.string(), z.unknown()) }).strict(),
    /** One part of the signature (EVM: `v`, `r`, `s`) instead of all of it. */
    part: z.string().min(1).optional(),
    /** The message with this field set to the signature (a signed struct, e.g. a user operation). */
    into: z.string().min(1).optional(),
  })
  .strict();

/**
 * One argument as written in a scenario, resolved on `chain`: `account:N`, `fresh:NAME`,
 * `contract:NAME` and `currency:SYMBOL` become addresses; `{ call: { contract, function, args } }` the calldata of that
 * call; `{ sign: { contract, type, signer, message } }` the signer's signature of the message the
 * contract checks (with `part: v|r|s` one part of it, with `into: FIELD` the message carrying it);
 * lists and objects are resolved inside; anything else stays as written.
 */
export async function resolveCallValue(state: ScenarioRunState, chain: ChainAdapter, value: unknown, where: string): Promise<unknown> {
  if (typeof value === 'string') return /^(account:\d+|fresh:.+|contract:.+|currency:.+)$/.test(value) ? resolveAddress(state.sim, chain, value, state.contracts) : value;
  if (Array.isArray(value)) {
    const resolved: unknown[] = [];
    for (const [index, item] of value.entries()) resolved.push(await resolveCallValue(state, chain, item, `${where}[${index}]`));
    return resolved;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if ('call' in object && Object.keys(object).length === 1) {
    const parsed = NestedCall.safeParse(object.call);
    if (!parsed.success) throw new ScenarioStepError(`${where}.call: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`);
    return (await encodeCall(state, chain, parsed.data, `${where}.call`)).data;
  }
  if ('sign' in object) {
    const parsed = SignForm.safeParse(object);
    if (!parsed.success) throw new ScenarioStepError(`${where}: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`);
    return sign(state, chain, parsed.data, where);
  }
  const resolved: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) resolved[key] = await resolveCallValue(state, chain, item, `${where}.${key}`);
  return resolved;
}

/** The calldata of `function(args)` on a contract by reference. */
export async function encodeCall(state: ScenarioRunState, chain: ChainAdapter, call: { contract: string; function: string; args: unknown[]; abi?: string | undefined }, where: string): Promise<{ target: ContractTarget; data: string; args: unknown[] }> {
  const target = resolveContract(state, chain, call.contract, call.abi);
  const args = (await resolveCallValue(state, chain, call.args, `${where}.args`)) as unknown[];
  try {
    return { target, data: requireCapability(chain, 'fixtureContracts', `encoding ${call.function}`).encodeContractCall(abiOf(target), call.function, args), args };
  } catch (error) {
    throw new ScenarioStepError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function sign(state: ScenarioRunState, chain: ChainAdapter, form: z.output<typeof SignForm>, where: string): Promise<unknown> {
  const target = resolveContract(state, chain, form.sign.contract);
  if (!target.fixture) throw new ScenarioStepError(`${where}.sign: ${target.label} is not a deployed fixture contract: nothing says what it checks`);
  const message = (await resolveCallValue(state, chain, form.sign.message, `${where}.sign.message`)) as Record<string, unknown>;
  let signed;
  try {
    signed = await requireCapability(chain, 'fixtureContracts', `signing a ${form.sign.type}`).signContractMessage(privateKeyOf(state.sim, chain, form.sign.signer), { fixture: target.fixture, address: target.address }, form.sign.type, message);
  } catch (error) {
    throw new ScenarioStepError(`${where}.sign: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (form.into !== undefined) return { ...message, [form.into]: signed.signature };
  if (form.part === undefined) return signed.signature;
  if (!(form.part in signed.parts)) throw new ScenarioStepError(`${where}.part: a signature on chain ${chain.chainId} has parts ${Object.keys(signed.parts).join(', ')}`);
  return signed.parts[form.part];
}

/** A quote's `txs` as the SPEC takes them (`{ to, data, value }`), each call encoded on the destination chain. */
export async function encodeCallTxs(state: ScenarioRunState, chain: ChainAdapter, txs: Array<z.output<typeof CallTxSchema>>): Promise<Array<{ to: string; data: string; value: string }>> {
  const encoded: Array<{ to: string; data: string; value: string }> = [];
  for (const [index, tx] of txs.entries()) {
    if (tx.function === undefined) {
      encoded.push({ to: resolveContractAddress(state, chain, tx.to), data: tx.data!, value: tx.value });
      continue;
    }
    const { target, data } = await encodeCall(state, chain, { contract: tx.to, function: tx.function, args: tx.args, abi: tx.abi }, `txs[${index}]`);
    encoded.push({ to: target.address, data, value: tx.value });
  }
  return encoded;
}

/** The address of `to` in a call sent as written: a contract by reference, or an address ref. */
function resolveContractAddress(state: ScenarioRunState, chain: ChainAdapter, to: string): string {
  if (/^(account:\d+|fresh:.+|contract:.+|currency:.+)$/.test(to) || chain.isValidAddress(to)) return resolveAddress(state.sim, chain, to, state.contracts);
  return resolveContract(state, chain, to).address;
}

/** An argument as the timeline shows it: values as written, nested calls and signatures by what they are, structs elided. */
export function describeArg(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(describeArg).join(', ')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const object = value as Record<string, any>;
  if ('call' in object && object.call && typeof object.call === 'object') return `call(${String(object.call.contract)}.${String(object.call.function)})`;
  if ('sign' in object && object.sign && typeof object.sign === 'object') {
    const what = `sign(${String(object.sign.type)} by ${String(object.sign.signer)})`;
    return object.part ? `${what}.${String(object.part)}` : object.into ? `${what} into ${String(object.into)}` : what;
  }
  return '{…}';
}
