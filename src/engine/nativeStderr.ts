import { createRequire } from 'node:module';

/** The libc calls that move file descriptor 2; undefined where they cannot be reached (Windows, no koffi). */
interface Libc {
  dup(fd: number): number;
  dup2(from: number, to: number): number;
  open(path: string, flags: number): number;
  close(fd: number): number;
}

const LIBC_PATHS: Partial<Record<NodeJS.Platform, string>> = { linux: 'libc.so.6', darwin: '/usr/lib/libSystem.B.dylib' };
const O_WRONLY = 1;

let libc: Libc | undefined | null = null;

function loadLibc(): Libc | undefined {
  if (libc !== null) return libc;
  libc = undefined;
  const path = LIBC_PATHS[process.platform];
  if (path === undefined) return libc;
  try {
    // koffi is CommonJS; createRequire keeps this module's import graph free of it until a probe needs it.
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const lib = koffi.load(path);
    libc = {
      dup: lib.func('int dup(int)') as Libc['dup'],
      dup2: lib.func('int dup2(int, int)') as Libc['dup2'],
      open: lib.func('int open(const char *, int)') as Libc['open'],
      close: lib.func('int close(int)') as Libc['close'],
    };
  } catch {
    // Without it a native library's messages still reach the terminal: noise, never a wrong result.
  }
  return libc;
}

/**
 * Runs `work` with the process's file descriptor 2 pointed at /dev/null, then restores it. Native code
 * (Dawn's adapter probe: "Couldn't load Vulkan", "maxDynamicUniformBuffersPerPipelineLayout artificially
 * reduced") writes there directly, past Node's streams, so only the descriptor itself can keep it off a
 * user's terminal. Node's own writes to stderr in the meantime are lost too: callers print nothing while
 * `work` runs. Where libc cannot be reached (Windows), `work` runs as is.
 *
 * @example
 * const adapter = await withNativeStderrSilenced(() => loadWebGpu());
 */
export async function withNativeStderrSilenced<T>(work: () => Promise<T>): Promise<T> {
  const c = loadLibc();
  const saved = c ? c.dup(2) : -1;
  const devNull = saved >= 0 ? c!.open('/dev/null', O_WRONLY) : -1;
  if (devNull < 0 || c!.dup2(devNull, 2) < 0) {
    if (devNull >= 0) c!.close(devNull);
    if (saved >= 0) c!.close(saved);
    return work();
  }
  c!.close(devNull);
  try {
    return await work();
  } finally {
    c!.dup2(saved, 2);
    c!.close(saved);
  }
}
