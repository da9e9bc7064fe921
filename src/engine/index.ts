export { selectBackend, currentBackend, BACKEND_REQUESTS } from './backend.js';
export type { BackendRequest, BackendName, BackendAttempt, BackendChoice } from './backend.js';
