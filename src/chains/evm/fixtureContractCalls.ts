import { encodeFunctionData, getAddress, parseSignature, type Abi, type AbiFunction, type AbiParameter, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { contractArtifacts, type ContractName } from '../../../fixtures/contracts/artifacts.generated';
import { ChainError } from '../../errors/IntentsimError';
import type { ContractSignature } from '../capabilities/FixtureContractsCapability';

/**
 * Calls and signatures for the contracts scenarios drive on an EVM chain (the fixture contracts
 * Call requests target, the chain's currencies): arguments written as JSON (numbers as numbers
 * or decimal strings, addresses as hex, structs as objects) are coerced to what the ABI says
 * before they are encoded or signed.
 */
export class ContractCallError extends ChainError {}

function artifactAbi(name: string): Abi {
  if (!Object.hasOwn(contractArtifacts, name)) throw new ContractCallError(`no contract ABI named ${name} (one of ${Object.keys(contractArtifacts).join(', ')})`);
  return contractArtifacts[name as ContractName].abi as Abi;
}

/** One JSON value as the ABI parameter `param` wants it (bigint for integers, checksummed addresses, structs by field). */
export function coerceAbiValue(param: Pick<AbiParameter, 'type' | 'name'> & { components?: readonly AbiParameter[] }, value: unknown, where: string): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(param.type);
  if (array) {
    if (!Array.isArray(value)) throw new ContractCallError(`${where}: ${param.type} wants a list, got ${JSON.stringify(value)}`);
    return value.map((item, index) => coerceAbiValue({ ...param, type: array[1]! }, item, `${where}[${index}]`));
  }
  if (param.type === 'tuple') {
    const components = param.components ?? [];
    if (Array.isArray(value)) return components.map((component, index) => coerceAbiValue(component, value[index], `${where}.${component.name ?? index}`));
    if (value === null || typeof value !== 'object') throw new ContractCallError(`${where}: a struct wants an object, got ${JSON.stringify(value)}`);
    const fields = value as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((key) => !components.some((component) => component.name === key));
    if (unknown.length > 0) throw new ContractCallError(`${where}: no field ${unknown.join(', ')} (fields: ${components.map((component) => component.name).join(', ')})`);
    return Object.fromEntries(
      components.map((component) => {
        if (!(component.name! in fields)) throw new ContractCallError(`${where}: field ${component.name} is missing`);
        return [component.name!, coerceAbiValue(component, fields[component.name!], `${where}.${component.name}`)];
      }),
    );
  }
  if (/^u?int\d*$/.test(param.type)) {
    if (typeof value === 'bigint') return value;
    if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value))) return BigInt(value);
    throw new ContractCallError(`${where}: ${param.type} wants an integer (a number or a decimal string), got ${JSON.stringify(value)}`);
  }
  if (param.type === 'address') {
    if (typeof value !== 'string') throw new ContractCallError(`${where}: address wants a string, got ${JSON.stringify(value)}`);
    try {
      return getAddress(value);
    } catch {
      throw new ContractCallError(`${where}: ${value} is not an address`);
    }
  }
  if (param.type === 'bool') {
    if (typeof value === 'boolean') return value;
    throw new ContractCallError(`${where}: bool wants true or false, got ${JSON.stringify(value)}`);
  }
  return value;
}

function coerceArgs(inputs: readonly AbiParameter[], args: readonly unknown[], where: string): unknown[] {
  if (args.length !== inputs.length) throw new ContractCallError(`${where} takes ${inputs.length} argument(s) (${inputs.map((input) => `${input.type} ${input.name ?? ''}`.trim()).join(', ')}); got ${args.length}`);
  return inputs.map((input, index) => coerceAbiValue(input, args[index], `${where} argument ${input.name || index}`));
}

/** A function of `abi` by name (the first overload taking as many arguments). */
function functionOf(abi: Abi, functionName: string, argCount: number, label: string): AbiFunction {
  const candidates = abi.filter((item): item is AbiFunction => item.type === 'function' && item.name === functionName);
  if (candidates.length === 0) {
    const names = [...new Set(abi.filter((item) => item.type === 'function').map((item) => (item as AbiFunction).name))];
    throw new ContractCallError(`${label} has no function ${functionName} (it has ${names.join(', ')})`);
  }
  return candidates.find((item) => item.inputs.length === argCount) ?? candidates[0]!;
}

/** Calldata of `functionName(args)` on a contract with the ABI of `contractName` (any contract of fixtures/contracts). */
export function encodeFixtureCall(contractName: string, functionName: string, args: readonly unknown[]): Hex {
  const fn = functionOf(artifactAbi(contractName), functionName, args.length, contractName);
  return encodeFunctionData({ abi: [fn], functionName: fn.name, args: coerceArgs(fn.inputs, args, `${contractName}.${functionName}`) });
}

/** Constructor arguments of fixture contract `name`, coerced to its constructor's types. */
export function fixtureConstructorArgs(name: string, args: readonly unknown[]): unknown[] {
  const constructor = artifactAbi(name).find((item) => item.type === 'constructor');
  return coerceArgs(constructor && 'inputs' in constructor ? constructor.inputs : [], args, `${name} constructor`);
}

type TypedDataField = { name: string; type: string };

/** The EIP-712 messages fixture contracts check: their domain's name and version and the struct. */
const TYPED_MESSAGES: Record<string, Record<string, { domain: { name: string; version: string }; fields: TypedDataField[] }>> = {
  MarketplaceOrderBook: {
    Order: {
      domain: { name: 'MarketplaceOrderBook', version: '1' },
      fields: [
        { name: 'offerer', type: 'address' },
        { name: 'token', type: 'address' },
        { name: 'tokenId', type: 'uint256' },
        { name: 'amount', type: 'uint256' },
        { name: 'price', type: 'uint256' },
        { name: 'startTime', type: 'uint256' },
        { name: 'endTime', type: 'uint256' },
        { name: 'fulfiller', type: 'address' },
        { name: 'salt', type: 'uint256' },
      ],
    },
  },
  PermitToken: {
    Permit: {
      domain: { name: 'Permit Token', version: '1' },
      fields: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
  },
};

/**
 * Signs what fixture contract `contract` checks, with the key of a test account: an EIP-712
 * `Order` (MarketplaceOrderBook) or `Permit` (PermitToken), or an ERC-4337 `UserOperation`
 * (MinimalEntryPoint: the entry point's `getUserOpHash`, signed as a message). The signature's
 * parts are `v`, `r` and `s`.
 */
export async function signContractMessage(
  deps: { client: PublicClient; chainId: number },
  privateKey: string,
  contract: { fixture: string; address: string },
  type: string,
  message: Record<string, unknown>,
): Promise<ContractSignature> {
  const account = privateKeyToAccount(privateKey as Hex);
  const verifyingContract = getAddress(contract.address);
  let signature: Hex;
  const typed = TYPED_MESSAGES[contract.fixture]?.[type];
  if (typed) {
    const coerced = coerceAbiValue({ type: 'tuple', name: type, components: typed.fields }, message, `${type} message`) as Record<string, unknown>;
    signature = await account.signTypedData({
      domain: { ...typed.domain, chainId: deps.chainId, verifyingContract },
      types: { [type]: typed.fields },
      primaryType: type,
      message: coerced,
    });
  } else if (contract.fixture === 'MinimalEntryPoint' && type === 'UserOperation') {
    const abi = artifactAbi('MinimalEntryPoint');
    const getUserOpHash = functionOf(abi, 'getUserOpHash', 1, 'MinimalEntryPoint');
    const op = coerceArgs(getUserOpHash.inputs, [message], 'UserOperation')[0];
    const userOpHash = (await deps.client.readContract({ address: verifyingContract, abi: [getUserOpHash], functionName: 'getUserOpHash', args: [op] })) as Hex;
    signature = await account.signMessage({ message: { raw: userOpHash } });
  } else {
    const known = [...Object.entries(TYPED_MESSAGES).flatMap(([name, types]) => Object.keys(types).map((key) => `${key} (${name})`)), 'UserOperation (MinimalEntryPoint)'];
    throw new ContractCallError(`${contract.fixture} checks no ${type} signature here (known: ${known.join(', ')})`);
  }
  const { v, r, s } = parseSignature(signature);
  return { signature, parts: { v: Number(v), r, s } };
}

