import { concatHex, encodeAbiParameters, encodeFunctionData, toFunctionSelector, type Abi, type AbiFunction, type AbiParameter, type Hex } from 'viem';

/** A function's selector and inputs, found once per ABI and name (null: not exactly one function of that name). */
const preparedByAbi = new WeakMap<Abi, Map<string, { selector: Hex; inputs: readonly AbiParameter[] } | null>>();

function preparedFunction(abi: Abi, functionName: string): { selector: Hex; inputs: readonly AbiParameter[] } | null {
  let byName = preparedByAbi.get(abi);
  if (!byName) preparedByAbi.set(abi, (byName = new Map()));
  let prepared = byName.get(functionName);
  if (prepared === undefined) {
    const functions = abi.filter((item): item is AbiFunction => item.type === 'function' && item.name === functionName);
    prepared = functions.length === 1 ? { selector: toFunctionSelector(functions[0]!), inputs: functions[0]!.inputs } : null;
    byName.set(functionName, prepared);
  }
  return prepared;
}

/**
 * viem's `encodeFunctionData`, the same bytes, with the function's selector kept per ABI and name:
 * viem finds the ABI item, formats its signature and hashes it on every call, which was most of
 * the cost of the calldata a quote builds (the deposit, the simulated fill). Overloaded names, or
 * a call without a name, go to viem as they are.
 */
export const encodeCall = ((parameters: { abi: Abi; functionName?: string; args?: readonly unknown[] }) => {
  const prepared = typeof parameters.functionName === 'string' ? preparedFunction(parameters.abi, parameters.functionName) : null;
  if (!prepared) return encodeFunctionData(parameters as Parameters<typeof encodeFunctionData>[0]);
  return concatHex([prepared.selector, encodeAbiParameters(prepared.inputs, parameters.args ?? [])]);
}) as typeof encodeFunctionData;
