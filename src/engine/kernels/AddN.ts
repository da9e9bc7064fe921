import { AddN, getKernel, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';

/** The slice of tfjs-backend-webgpu's interface this kernel uses. */
interface WebGpuBackend {
  device: { limits: { maxStorageBuffersPerShaderStage: number } };
  disposeData(dataId: object): boolean;
}

/**
 * tfjs-backend-webgpu's AddN binds every input to one shader; past the device's storage-buffer limit
 * (8 on the device tfjs creates, one of them the output) the shader is invalid and its result wrong without an
 * error (a global gradient norm over 42 parameters came out 4x too small). This kernel adds at most as
 * many inputs at a time as a shader may bind, then adds the partial sums the same way.
 */
export function chunkedAddNConfig(): KernelConfig | undefined {
  const original = getKernel(AddN, 'webgpu');
  if (original === undefined) return undefined;
  const kernelFunc: KernelFunc = (args) => {
    const backend = args.backend as unknown as WebGpuBackend;
    const most = Math.max(2, backend.device.limits.maxStorageBuffersPerShaderStage - 1);
    let inputs = args.inputs as unknown as TensorInfo[];
    let owned = false;
    while (inputs.length > most) {
      const partial: TensorInfo[] = [];
      for (let i = 0; i < inputs.length; i += most) partial.push(original.kernelFunc({ ...args, inputs: inputs.slice(i, i + most) as unknown as typeof args.inputs }) as TensorInfo);
      if (owned) for (const t of inputs) backend.disposeData(t.dataId);
      inputs = partial;
      owned = true;
    }
    const out = original.kernelFunc({ ...args, inputs: inputs as unknown as typeof args.inputs }) as TensorInfo;
    if (owned) for (const t of inputs) backend.disposeData(t.dataId);
    return out;
  };
  return { kernelName: AddN, backendName: 'webgpu', kernelFunc, setupFunc: original.setupFunc };
}
