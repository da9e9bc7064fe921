export { ExitCode } from '../errors.js';
export type { ExitCodeValue } from '../errors.js';
