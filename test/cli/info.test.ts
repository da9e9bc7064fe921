import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cli } from '../helpers/cli.js';

const run = promisify(execFile);
/** `--backend webgpu info --json` in its own process (in this one it would fix the backend \`auto\` reports). */
const webgpu = await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', '--backend', 'webgpu', 'info', '--json']).then(
  ({ stdout }) => ({ stdout, missing: undefined }),
  (e: { stderr: string }) => ({ stdout: '', missing: e.stderr.split('\n').find((l) => l.startsWith('ppmlm')) ?? 'failed' }),
);
const webgpuMissing = webgpu.missing;

describe('ppmlm info', () => {
  it('names the backend auto picks and why each backend was (not) usable', async () => {
    const { code, stdout } = await cli('info', '--json');
    expect(code).toBe(0);
    const info = JSON.parse(stdout);
    expect(info.requested).toBe('auto');
    expect(['tensorflow', 'webgpu', 'wasm']).toContain(info.backend);
    expect(info.attempts[0].backend).toBe('tensorflow');
    // webgpu is tried next, and passed by when its adapter is a software renderer.
    if (info.backend !== 'tensorflow') expect(info.attempts[1].backend).toBe('webgpu');
    if (info.backend === 'wasm') expect(info.attempts[1].reason).toMatch(/software renderer|not installed|no Vulkan adapter|failed/);
    expect(info.attempts.at(-1)).toMatchObject({ backend: info.backend, usable: true });
    for (const a of info.attempts) expect(a.reason.length).toBeGreaterThan(0);
    // Which engine runs the CPU path's matrix products, and why.
    expect(['blas', 'wasm']).toContain(info.products.engine);
    expect(info.products.reason.length).toBeGreaterThan(0);
    const text = await cli('info');
    expect(text.stdout).toMatch(/^matrix products on the CPU \(wasm backend\): (BLAS \/\S+|ppmlm's wasm SIMD kernel).*; \S/m);
    // Which build of ppmlm's own kernel, and why: Node 20's V8 has relaxed SIMD behind a flag ppmlm sets.
    expect(info.wasmKernel).toEqual({ fma: true, reason: `relaxed SIMD in V8 ${process.versions.v8}` });
    expect(text.stdout).toMatch(/^ppmlm's wasm kernel: relaxed-SIMD fused multiply-add; relaxed SIMD in V8 /m);
    const plain = await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'info'], { env: { ...process.env, PPMLM_WASM_FMA: 'off' } });
    expect(plain.stdout).toMatch(/^ppmlm's wasm kernel: SIMD128 multiply and add; PPMLM_WASM_FMA=off$/m);
    const bad = await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'info'], { env: { ...process.env, PPMLM_WASM_FMA: 'yes' } }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/PPMLM_WASM_FMA=yes: expected off, on or auto/);
  });

  it("keeps Dawn's own messages out of stderr unless --verbose, and does not probe WebGPU where a command cannot use it", async () => {
    // Dawn writes from C++ ("Warning: Couldn't load Vulkan", "... artificially reduced"), past Node's streams.
    const stderrOf = async (...args: string[]) => (await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args])).stderr;
    const dawn = /Warning:|Dawn|Vulkan|BackendVk/;
    expect(await stderrOf('info')).not.toMatch(dawn);
    expect(await stderrOf('corpus', 'stats', '--corpus', 'test/fixtures/corpus/notes.csv')).not.toMatch(dawn);
  });

  it('never picks cpu unless asked', async () => {
    const auto = JSON.parse((await cli('info', '--json')).stdout);
    expect(auto.attempts.map((a: { backend: string }) => a.backend)).not.toContain('cpu');
  });

  it('prints --version and --help with exit 0', async () => {
    const v = await cli('--version');
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await cli('--help');
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/corpus/);
  });

  it('rejects an unknown backend with exit 2, in one line', async () => {
    const r = await cli('--backend', 'gpu', 'info');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("ppmlm: option '--backend <name>' argument 'gpu' is invalid. Allowed choices are auto, tensorflow, webgpu, wasm, cpu; run with --help for usage\n");
  });

  it('says a mistyped command and a missing option in one line each, with the way to usage', async () => {
    const typo = await cli('blacklist', 'evl');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("ppmlm: unknown command 'evl' (Did you mean eval?); run with --help for usage\n");
    const missing = await cli('blacklist', 'build', '--corpus', 'notes.csv');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("ppmlm: required option '--out <file>' not specified; run with --help for usage\n");
  });

  it('starts the wasm backend with the threads --threads asks for, and rejects a bad count', async () => {
    const threads = async (n: string) => JSON.parse((await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', '--backend', 'wasm', '--threads', n, 'info', '--json'])).stdout) as { threads: number; attempts: { reason: string }[] };
    const [one, two] = await Promise.all([threads('1'), threads('2')]);
    expect(one.threads).toBe(1);
    expect(two.threads).toBe(2);
    expect(two.attempts.at(-1)!.reason).toMatch(/XNNPACK, 2 threads/);
    const bad = await cli('--threads', '0', 'info');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--threads must be an integer between 1 and 8/);
  });

  it('refuses --backend webgpu without a Vulkan adapter in one line naming what is missing, exit 2', async () => {
    // An ICD list naming no driver: Dawn finds no adapter, whatever this machine has.
    const env = { ...process.env, VK_ICD_FILENAMES: '/nonexistent/icd.json', XDG_RUNTIME_DIR: '' };
    const failed = await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', '--backend', 'webgpu', 'info'], { env }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2 });
    const line = (failed as { stderr: string }).stderr.split('\n').find((l) => l.startsWith('ppmlm'));
    expect(line).toMatch(/webgpu: Dawn found no Vulkan adapter: install the GPU vendor's Vulkan driver, or Mesa's.*XDG_RUNTIME_DIR is not set.*--backend wasm/);
  });

  it.skipIf(webgpuMissing !== undefined)(`names the WebGPU adapter and whether it is a software renderer${webgpuMissing ? ` (SKIPPED: ${webgpuMissing})` : ''}`, async () => {
    const info = JSON.parse(webgpu.stdout);
    expect(info.backend).toBe('webgpu');
    expect(info.adapter.description.length).toBeGreaterThan(0);
    expect(typeof info.adapter.software).toBe('boolean');
    expect(info.adapter.maxStorageBufferBindingSize).toBeGreaterThan(0);
  });

  it('runs as a process and sets the exit code', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'info']);
    expect(stdout).toMatch(/^backend: (wasm|tensorflow)/m);
    await expect(run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'corpus', 'stats', '--corpus', '/nope.csv'])).rejects.toMatchObject({ code: 2 });
  });
});
