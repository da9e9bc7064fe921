export { selectBackend, currentBackend, BACKEND_REQUESTS } from './backend.js';
export { Rng } from './random.js';
export type { BackendRequest, BackendName, BackendAttempt, BackendChoice } from './backend.js';
