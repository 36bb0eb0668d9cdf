import { spawn } from 'node:child_process';

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
