/** `carrier probe`: requests generated from the catalog, replies held to properties (docs/probe.md). */
export {
  CREATING_OPERATIONS,
  creatingAllowed,
  mutationsOf,
  nextPickupDay,
  probeExamples,
  variationsOf,
  type Change,
  type Mutation,
  type PickupDay,
  type ProbeExample,
  type RuleBroken,
} from './examples';
export { BUILT_IN_PROPERTIES, type BuiltInProperty } from './properties';
export {
  probeRounds,
  runProbe,
  type ProbeFailure,
  type ProbeInput,
  type ProbeResult,
  type PropertyResult,
  type SendOutcome,
  type ShapeResult,
  type UserProperty,
} from './run';
export { failureFiles, type FailureFile } from './failureFile';
export { wrongBindingRequest } from './wrongBinding';
export { readProbeProperties, type PropertiesRead } from './propertiesFile';
