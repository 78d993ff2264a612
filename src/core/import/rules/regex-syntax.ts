// The syntax of a rule's regex: JavaScript's, plus what people paste from Python (and RE2) —
// `(?P<name>…)` groups, `(?P=name)` references, and global inline flags at the start, `(?i)` /
// `(?is)` — rewritten to their JavaScript spelling. `\A`, `\Z` and `\z` are refused by name: in
// JavaScript they are the letters A, Z, z, which is never what a pasted pattern means.
import { errorText } from '../../unknown';

export interface Normalized {
  pattern: string;
  flags: string;
}

const INLINE = /^\(\?([imsu]+)\)/;

export function normalizePattern(pattern: string, flags: string): Normalized {
  let p = pattern;
  let f = flags;
  const inline = INLINE.exec(p);
  if (inline) {
    p = p.slice(inline[0].length);
    for (const c of inline[1]) if (!f.includes(c)) f += c;
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const n = p[i + 1] ?? '';
      if (!inClass && (n === 'A' || n === 'Z' || n === 'z')) throw new Error(`\\${n} is the letter ${n} in JavaScript; for the start or end of the text write ^ or $ (without the m flag)`);
      out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') inClass = true;
    if (c === '(' && p.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    if (c === '(' && p.startsWith('(?P=', i)) {
      const end = p.indexOf(')', i);
      if (end < 0) throw new Error('(?P=name) is not closed');
      out += `\\k<${p.slice(i + 4, end)}>`;
      i = end;
      continue;
    }
    if (c === '(' && /^\(\?[imsux-]+[:)]/.test(p.slice(i))) throw new Error(`inline flags like ${/^\(\?[imsux-]+[:)]/.exec(p.slice(i))![0]} work only at the very start, as (?i)`);
    out += c;
  }
  return { pattern: out, flags: sortFlags(f) };
}

const sortFlags = (f: string) => [...new Set(f)].sort().join('');

/** Why `new RegExp` refuses the pattern after normalizing, or null when it is valid. */
export function regexSyntaxError(pattern: string, flags = ''): string | null {
  try {
    const n = normalizePattern(pattern, flags);
    new RegExp(n.pattern, n.flags);
    return null;
  } catch (e) {
    return errorText(e);
  }
}
