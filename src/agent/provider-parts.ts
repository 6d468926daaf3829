// What a cycle needs only when it is about to call the provider, or when a record carries a
// refusal: the hourly call budget, the gate every call passes through, per-record backoff and
// the dynamic DNS client with its answer readers. A plain cycle (address unchanged, nothing
// sent) never loads them: cycle.ts imports this module on demand, and every module file
// less is start-up time saved in each cycle (measured in `npm run bench`).
export { BudgetSpentError, CallBudget } from '../state/budget.js';
export { activeBackoff, isRefusal, nextBackoff } from '../state/backoff.js';
export { sendDyndnsUpdate, DyndnsError } from '../dyndns/client.js';
export { isGateRefusal, ProviderGate } from './provider-gate.js';
export { recordFingerprint } from './record-fingerprint.js';
