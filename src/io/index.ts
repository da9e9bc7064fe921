export { PRIVATE_FILE_MODE, assertCanWrite, writeFileAtomic, writeThroughTempPath, openAtomicWriteStream, prepareAtomicDir, writeDirAtomic, recoverAtomicDir } from './atomic.js';
export type { WriteOptions, AtomicWriteStream } from './atomic.js';
export { findInvalidUtf8, positionOf, decodeUtf8Strict, Utf8Validator } from './utf8.js';
export type { DecodeOptions } from './utf8.js';
export { readLines } from './lines.js';
export { fileSystemError } from './fsErrors.js';
export type { Line } from './lines.js';
export { isJsonObject, jsonErrorPosition, jsonErrorOffset, parseJson, readJsonFile } from './json.js';
export type { ReadJsonOptions } from './json.js';
