import type { CallFrame, RelayedCallSimulation } from './relayedCall';

/** The service's revert kinds in `/execute` simulation errors (`details.revert.type`). */
export type RevertType = 'errorString' | 'panic' | 'customError' | 'unknownCustomError' | 'empty';

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
export type FrameDetails = CallFrame;

/** SPEC §7.1 `POST /execute` simulation failure: the label, a message and `details`. */
export interface SimulationFailureBody {
  label: string;
  message: string;
  details: { topLevel: FrameDetails; innermost: FrameDetails; path: FrameDetails[]; revert: RevertDetails };
}

/** The body of a failed simulation: the innermost reverting frame's error names it. */
export function simulationFailureBody(simulation: Extract<RelayedCallSimulation, { ok: false }>): SimulationFailureBody {
  const { revert } = simulation;
  const where = simulation.innermost.to ? ` in a call to ${simulation.innermost.to}` : '';
  return {
    label: revert.label,
    message: `The call would revert${where}: ${revert.label}`,
    details: { topLevel: simulation.topLevel, innermost: simulation.innermost, path: simulation.path, revert },
  };
}
