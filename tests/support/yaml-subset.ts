// A strict parser for the YAML subset our CI files use (block mappings and sequences, plain and
// quoted scalars, one-line flow mappings/sequences, `|` literal blocks, comments). Anything else
// (tabs, anchors, aliases, multi-line flow, documents) is an error with its line number, so a test
// that parses a workflow fails when the file stops being plain YAML. No YAML package is installed.

type Value = string | number | boolean | null | Value[] | { [k: string]: Value };
interface Line { no: number; indent: number; text: string }

function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === q) q = null;
    } else if (c === '"' || c === "'") q = c;
    else if (c === '#' && (i === 0 || s[i - 1] === ' ')) return s.slice(0, i).trimEnd();
  }
  if (q) throw new Error(`unterminated quote: ${s}`);
  return s.trimEnd();
}

function splitFlow(s: string, no: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let q: string | null = null;
  let cur = '';
  for (const c of s) {
    if (q) q = c === q ? null : q;
    else if (c === '"' || c === "'") q = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (c === ',' && depth === 0 && !q) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (depth !== 0) throw new Error(`line ${no}: unbalanced flow collection`);
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function scalar(raw: string, no: number): Value {
  const s = raw.trim();
  if (/^[&*!]/.test(s)) throw new Error(`line ${no}: anchors, aliases and tags are not supported`);
  if (s.startsWith('{')) {
    if (!s.endsWith('}')) throw new Error(`line ${no}: multi-line flow mapping`);
    const o: Record<string, Value> = {};
    for (const part of splitFlow(s.slice(1, -1), no)) {
      const m = /^([^:]+):\s+(.*)$/.exec(part);
      if (!m) throw new Error(`line ${no}: bad flow entry ${part}`);
      o[m[1].trim()] = scalar(m[2], no);
    }
    return o;
  }
  if (s.startsWith('[') && !s.startsWith('[[')) {
    if (!s.endsWith(']')) throw new Error(`line ${no}: multi-line flow sequence`);
    return splitFlow(s.slice(1, -1), no).map((x) => scalar(x, no));
  }
  if (s.startsWith('"')) return JSON.parse(s) as string;
  if (s.startsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  if (s === 'true' || s === 'false') return s === 'true';
  if (s === 'null' || s === '~' || s === '') return null;
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  return s;
}

export function parseYamlSubset(text: string): Value {
  const lines: Line[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: tab character`);
    if (/^(---|\.\.\.)\s*$/.test(raw)) throw new Error(`line ${i + 1}: document markers are not supported`);
    const indent = raw.length - raw.trimStart().length;
    lines.push({ no: i + 1, indent, text: raw.trim() === '' ? '' : raw.slice(indent) });
  });
  let pos = 0;
  const next = (): Line | undefined => {
    while (pos < lines.length && stripComment(lines[pos].text) === '') pos++;
    return lines[pos];
  };

  function literal(parentIndent: number): string {
    const body: string[] = [];
    let ind = -1;
    while (pos < lines.length && (lines[pos].text === '' || lines[pos].indent > parentIndent)) {
      const l = lines[pos++];
      if (l.text === '') body.push('');
      else {
        if (ind < 0) ind = l.indent;
        body.push(' '.repeat(l.indent - ind) + l.text);
      }
    }
    return body.join('\n').replace(/\n*$/, '\n');
  }

  function value(rest: string, l: Line, childIndent: number): Value {
    if (rest === '|') return literal(l.indent);
    if (rest !== '') return scalar(rest, l.no);
    const n = next();
    if (n && (n.indent > l.indent || (n.indent === l.indent && n.text.startsWith('- ')))) return block(n.indent);
    void childIndent;
    return null;
  }

  function entry(text: string, l: Line, into: Record<string, Value>): void {
    const m = /^("[^"]*"|'[^']*'|[^\s"'][^:]*?):(?:\s+(.*))?$/.exec(text);
    if (!m) throw new Error(`line ${l.no}: expected "key: value", got ${text}`);
    const key = String(scalar(m[1], l.no));
    if (key in into) throw new Error(`line ${l.no}: duplicate key ${key}`);
    into[key] = value(stripComment(m[2] ?? ''), l, l.indent + 2);
  }

  function block(indent: number): Value {
    const first = next()!;
    if (first.text.startsWith('- ') || first.text === '-') {
      const seq: Value[] = [];
      for (let l = next(); l && l.indent === indent && (l.text.startsWith('- ') || l.text === '-'); l = next()) {
        pos++;
        const rest = stripComment(l.text.slice(1).trimStart());
        const itemIndent = indent + 2;
        if (/^("[^"]*"|'[^']*'|[^\s"'{[][^:]*?):(\s|$)/.test(rest)) {
          const o: Record<string, Value> = {};
          entry(rest, { ...l, indent: itemIndent }, o);
          for (let c = next(); c && c.indent === itemIndent && !c.text.startsWith('- '); c = next()) {
            pos++;
            entry(stripComment(c.text), c, o);
          }
          seq.push(o);
        } else seq.push(value(rest, { ...l, indent }, itemIndent));
      }
      return seq;
    }
    const map: Record<string, Value> = {};
    for (let l = next(); l && l.indent === indent && !l.text.startsWith('- '); l = next()) {
      pos++;
      entry(stripComment(l.text), l, map);
    }
    const after = next();
    if (after && after.indent > indent) throw new Error(`line ${after.no}: unexpected indentation`);
    return map;
  }

  const root = next() ? block(next()!.indent) : null;
  const rest = next();
  if (rest) throw new Error(`line ${rest.no}: unexpected content at indent ${rest.indent}`);
  return root;
}
