import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface ChildOutput {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From spawn to exit, as the parent saw it. */
  readonly wallMs: number;
}

/** Runs `node ...args` and collects its output; rejects only if it cannot be started. */
export function spawnNode(
  args: readonly string[],
  options: { cwd?: string; timeoutMs: number },
): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr, wallMs: performance.now() - started });
    });
  });
}

/** `exit code N` or `signal S`, for an error message. */
export function howItEnded(output: ChildOutput): string {
  return output.signal === null ? `exit code ${output.code}` : `signal ${output.signal}`;
}

/**
 * Compiles `files` (and what they import) from `repo` into `dir` with the project's own tsc,
 * so a measured child process runs plain JavaScript, as the package ships, instead of paying
 * for type stripping. Returns each source's compiled path, or null when compiling failed
 * (the caller then runs the sources).
 */
export async function compileForChild(
  repo: string,
  dir: string,
  files: readonly string[],
): Promise<(source: string) => string | null> {
  const out = join(dir, 'out');
  const config = join(dir, 'tsconfig.json');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(repo, 'tsconfig.json'),
      compilerOptions: { noEmit: false, outDir: out, rootDir: repo, declaration: false },
      files,
      include: [],
    }),
  );
  // Type errors still emit JavaScript; only a missing output is a failure.
  await spawnNode([join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], {
    cwd: repo,
    timeoutMs: 120_000,
  }).catch(() => null);
  const compiled = (source: string) => join(out, relative(repo, source).replace(/\.ts$/, '.js'));
  if (
    !files
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .every((f) => existsSync(compiled(f)))
  ) {
    return () => null;
  }
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  // Bare imports (htmlparser2, the peers) resolve as they do from the sources.
  symlinkSync(join(repo, 'node_modules'), join(out, 'node_modules'), 'dir');
  symlinkSync(join(repo, 'bench', 'node_modules'), join(out, 'bench', 'node_modules'), 'dir');
  return compiled;
}
