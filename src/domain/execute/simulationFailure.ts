import { revertLabel, type DecodedRevert } from '../fill/decodedRevert';
import type { CallFrame, RelayedCallSimulation } from './relayedCall';

/** The service's revert kinds in `/execute` simulation errors (`details.revert.type`). */
type RevertType = 'errorString' | 'panic' | 'customError' | 'unknownCustomError' | 'empty';

/** `details.revert`: the decoded revert data of the innermost reverting frame. */
export interface RevertDetails {
  type: RevertType;
  label: string;
  message: string;
  selector?: string;
  name?: string;
  args?: string[];
  rawArgsHex?: string;
}

/** A frame as `details` shows it: its call, and why it failed with its revert decoded. */
export interface FrameDetails {
  type: string;
  from: string;
  to: string;
  input: string;
  value: string;
  error?: string;
  revert?: RevertDetails;
}

/** SPEC §7.1 `POST /execute` simulation failure: the label, a message and `details`. */
export interface SimulationFailureBody {
  label: string;
  message: string;
  details: { topLevel: FrameDetails; innermost: FrameDetails; path: FrameDetails[]; revert: RevertDetails };
}

export function revertDetails(revert: DecodedRevert): RevertDetails {
  const label = revertLabel(revert);
  const selector = revert.data.length >= 10 ? revert.data.slice(0, 10) : undefined;
  const rawArgsHex = revert.data.length > 10 ? `0x${revert.data.slice(10)}` : undefined;
  switch (revert.kind) {
    case 'customError':
      return { type: 'customError', label, message: `reverted with ${label}`, ...(selector ? { selector } : {}), name: revert.errorName, args: revert.args, ...(rawArgsHex ? { rawArgsHex } : {}) };
    case 'reasonString':
      return { type: 'errorString', label, message: revert.reason, ...(selector ? { selector } : {}) };
    case 'panic':
      return { type: 'panic', label, message: `panicked: ${label}`, ...(selector ? { selector } : {}) };
    case 'undecoded':
      return { type: 'unknownCustomError', label, message: `reverted with an error no known ABI names (${selector ?? revert.data})`, ...(selector ? { selector } : {}), ...(rawArgsHex ? { rawArgsHex } : {}) };
    case 'noData':
      return { type: 'empty', label, message: 'reverted without revert data' };
  }
}

function frameDetails(frame: CallFrame): FrameDetails {
  const { revert, ...rest } = frame;
  return { ...rest, ...(revert ? { revert: revertDetails(revert) } : {}) };
}

/** The body of a failed simulation: the innermost reverting frame's error names it. */
export function simulationFailureBody(simulation: Extract<RelayedCallSimulation, { ok: false }>): SimulationFailureBody {
  const revert = revertDetails(simulation.revert);
  const where = simulation.innermost.to ? ` in a call to ${simulation.innermost.to}` : '';
  return {
    label: revert.label,
    message: `The call would revert${where}: ${revert.label}`,
    details: { topLevel: frameDetails(simulation.topLevel), innermost: frameDetails(simulation.innermost), path: simulation.path.map(frameDetails), revert },
  };
}
