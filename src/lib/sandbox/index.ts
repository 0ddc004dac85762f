export type { SandboxHandler } from './child.ts';
export { SandboxFailure, type SandboxFailureCode, SandboxTaskError } from './protocol.ts';
export { findPrlimit, Sandbox, type SandboxEntry, type SandboxLimits } from './sandbox.ts';
