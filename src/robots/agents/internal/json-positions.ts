/**
 * The 1-based line on which each element of the array under a top-level key starts, in a
 * JSON text that `JSON.parse` accepted, so registry diagnostics can point at the entry.
 * One linear pass; strings are skipped with their escapes. Returns `[]` when there is no
 * such array.
 */
export function jsonElementLines(text: string, key: string): number[] {
  const lines: number[] = [];
  // One frame per open container: for objects, whether a key is due and the last key read.
  const stack: { array: boolean; expectKey: boolean; key: string | null; wanted: boolean }[] = [];
  let line = 1;
  let elementDue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    const top = stack.at(-1);
    if (elementDue && c !== 0x5d) lines.push(line);
    elementDue = false;
    if (c === 0x22) {
      const end = closingQuote(text, i);
      if (top !== undefined && !top.array && top.expectKey) {
        top.key = JSON.parse(text.slice(i, end + 1)) as string;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b) {
      stack.push({ array: false, expectKey: true, key: null, wanted: false });
    } else if (c === 0x5b) {
      const wanted = stack.length === 1 && top !== undefined && !top.array && top.key === key;
      stack.push({ array: true, expectKey: false, key: null, wanted });
      elementDue = wanted;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c && top !== undefined) {
      if (top.array) elementDue = top.wanted;
      else top.expectKey = true;
    }
  }
  return lines;
}

/** Index of the quote that closes the string opening at `start`. */
function closingQuote(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i;
    else i++;
  }
  return text.length - 1;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * Where a text stops being JSON: the offset of the first character that cannot continue a
 * JSON text (the length when it ends too early), or -1 for valid JSON. `JSON.parse` says
 * what is wrong but, in current V8, not where. One linear pass with an explicit stack, so
 * deep nesting cannot overflow.
 */
export function jsonErrorOffset(text: string): number {
  const stack: ('{' | '[')[] = [];
  let state: 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'after' = 'value';
  let i = 0;
  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
    if (i >= text.length) return state === 'after' && stack.length === 0 ? -1 : i;
    const c = text.charAt(i);
    if (state === 'value-or-close' || state === 'key-or-close') {
      if (c === (state === 'value-or-close' ? ']' : '}')) {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      state = state === 'value-or-close' ? 'value' : 'key';
    }
    if (state === 'value') {
      if (c === '{' || c === '[') {
        stack.push(c);
        state = c === '{' ? 'key-or-close' : 'value-or-close';
        i++;
        continue;
      }
      let end = -1;
      if (c === '"') end = stringEnd(text, i);
      else if (text.startsWith('true', i) || text.startsWith('null', i)) end = i + 4;
      else if (text.startsWith('false', i)) end = i + 5;
      else {
        NUMBER.lastIndex = i;
        if (NUMBER.test(text)) end = NUMBER.lastIndex;
      }
      if (end < 0) return c === '"' ? -end - 1 : i;
      i = end;
      state = 'after';
    } else if (state === 'key') {
      if (c !== '"') return i;
      const end = stringEnd(text, i);
      if (end < 0) return -end - 1;
      i = end;
      state = 'colon';
    } else if (state === 'colon') {
      if (c !== ':') return i;
      i++;
      state = 'value';
    } else {
      const top = stack.at(-1);
      if (top === undefined) return i;
      if (c === ',') state = top === '{' ? 'key' : 'value';
      else if ((c === '}' && top === '{') || (c === ']' && top === '[')) stack.pop();
      else return i;
      i++;
    }
  }
}

/** The offset after the string opening at `start`, or `-(offset + 1)` of what is wrong. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c === 0x5c) {
      ESCAPE.lastIndex = i;
      if (!ESCAPE.test(text)) return -(i + 1);
      i = ESCAPE.lastIndex;
    } else if (c < 0x20) return -(i + 1);
    else i++;
  }
  return -(text.length + 1);
}
