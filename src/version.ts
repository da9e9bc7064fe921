import { readFileSync } from 'node:fs';

/** Read once from package.json, which ships beside dist/ and src/. */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
