export {
  createCuescope,
  CuescopeError,
  type Cuescope,
  type CuescopeErrorKind,
  type CuescopeOptions,
  type CuescopeStats,
  type EventBody,
  type EventType,
  type MethodName,
  type RecordOptions,
  type RecordedEvent,
  type Run,
  type StartRunOptions,
  type TurnEventType,
} from "./client";
export type { Experiment, ExperimentArm } from "./experiment";
export { newId } from "./ids";
