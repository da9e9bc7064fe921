import * as tf from '@tensorflow/tfjs-core';
import type { WasmHeapBackend } from './kernels/wasmKernel.js';

type HeapBackend = Partial<WasmHeapBackend> & { refCount?: (dataId: object) => number };

function wasmHeap(): HeapBackend | undefined {
  if (tf.getBackend() !== 'wasm') return undefined;
  const backend = tf.backend() as unknown as HeapBackend;
  return backend.typedArrayFromHeap ? backend : undefined;
}

/**
 * Whether training state stays in the backend: a GPU backend's memory is not wasm32's 4 GiB, and in Node
 * a WebGPU buffer can only be read asynchronously, so gradients, optimizer moments and stored activations
 * stay on the device and a step reads back only its loss and gradient norm.
 */
export function onDevice(): boolean {
  return tf.getBackend() === 'webgpu';
}

/**
 * A float32 tensor's values. On the wasm backend this is a view into the heap, not a copy: reading a
 * 110M-parameter model's gradients out as copies every step churns hundreds of megabytes of JavaScript
 * memory. The view is valid only until the next tensor is allocated (a growing heap moves), so use it at
 * once.
 */
export function readValues(t: tf.Tensor): Float32Array {
  return (wasmHeap()?.typedArrayFromHeap!(t) ?? t.dataSync()) as Float32Array;
}

/**
 * Overwrites a variable's values with `update(values)` applied in place. On the wasm backend a variable
 * that owns its buffer alone is updated where it lies (no second copy of a large embedding in the heap,
 * no fragmentation); elsewhere it is read, updated and reassigned.
 */
export function updateVariable(p: tf.Variable, update: (values: Float32Array) => void): void {
  const heap = wasmHeap();
  if (heap !== undefined && heap.refCount?.(p.dataId) === 1) {
    update(heap.typedArrayFromHeap!(p));
    return;
  }
  const values = Float32Array.from(p.dataSync() as Float32Array);
  update(values);
  const t = tf.tensor(values, p.shape, 'float32');
  p.assign(t);
  t.dispose();
}
