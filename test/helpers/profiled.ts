import * as tf from '@tensorflow/tfjs-core';
import { selectBackend } from '../../src/engine/index.js';

/** `run` on `backend` under tf.profile: what it returned, and the names of the kernels it ran. */
export async function profiledOn<T>(backend: 'wasm' | 'cpu', run: () => T): Promise<{ result: T; kernels: string[] }> {
  await selectBackend(backend);
  let result: T | undefined;
  const { kernelNames } = await tf.profile(() => {
    result = run();
  });
  return { result: result as T, kernels: kernelNames };
}
