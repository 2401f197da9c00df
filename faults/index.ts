/** Fault policy: scripted faults and the nemesis that runs them on kernel primitives. */
export { Nemesis } from './nemesis';
export {
  describeFault,
  isInsideGuarantee,
  type CrashFault,
  type LinkFault,
  type PartitionFault,
  type PauseFault,
  type ScriptedFault,
} from './fault_types';
export { drawRandomFaults, type RandomNemesisSpec } from './random_nemesis';
