// Number and time formatting for people. Fixed to `,` grouping and `.` decimals rather than
// the browser's locale, so a report reads the same wherever it is opened and tests can assert
// on its text.

/** `1234567` -> `1,234,567`; fractions keep up to `digits` decimals. */
export function formatCount(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return String(value);
  const fixed = Math.abs(value).toFixed(digits);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** Milliseconds for people: `850 ms`, `12.3 s`, `4 min 5 s`, `2 h 3 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${formatCount(Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${formatCount(seconds, 1)} s`;
  const totalSeconds = Math.round(seconds);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} min ${totalSeconds % 60} s`;
  return `${formatCount(Math.floor(minutes / 60))} h ${minutes % 60} min`;
}

/** `3` -> `3 pages`, `1` -> `1 page`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** `404` -> `4xx`; null (no response) -> `none`. */
export function statusClass(status: number | null): string {
  if (status === null) return 'none';
  return `${Math.floor(status / 100)}xx`;
}
