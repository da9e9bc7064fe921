import { selectBackend } from '../../src/engine/index.js';

/**
 * Why the webgpu tests cannot run here (undefined when they can): they need Dawn and a Vulkan adapter,
 * a software one (Mesa's lavapipe, installed by .ci/run) included. The reason goes into the suite's name,
 * so a skip says plainly what is missing.
 */
export async function webgpuUnavailable(): Promise<string | undefined> {
  try {
    await selectBackend('webgpu');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
