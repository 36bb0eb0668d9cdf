const KIB = 1024;
const MIB = 1024 * KIB;

/** A duration for a message: `200 ms`, `1.5 s`, `15 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

/** A byte count for a message, in the largest binary unit that divides it: `10 MiB`, `64 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}
