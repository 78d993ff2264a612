// Files the CLIs read and write, the same in every CLI: each failure names the file (missing, a
// directory, empty, not UTF-8, bad JSON, nested past the depth limit, a full disk), a UTF-8
// byte-order mark is skipped, and JSON is written with non-finite numbers as "NaN" / "Infinity" (as
// bundles hold them), never as null.
import { errorText } from '../core/unknown';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { stringifyWithNonFinite } from '../core/experiment/bundle';
import { depthError } from '../core/json-depth';

const reason = (e: unknown) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorText(e));

/** Text without a leading UTF-8 byte-order mark (every reader of the CLIs strips it, nothing else). */
export function withoutBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Offset of the first byte that is not UTF-8: decoded leniently (a bad sequence becomes U+FFFD) and
 * encoded again, the text equals the file up to that byte.
 */
function firstInvalidByte(bytes: Uint8Array): number {
  const again = Buffer.from(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), 'utf8');
  let i = 0;
  while (i < bytes.length && bytes[i] === again[i]) i++;
  return i;
}

/** The bytes as UTF-8 text; any other encoding is refused with the offset of its first bad byte. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    throw new Error(`not UTF-8 text: byte offset ${at} (0x${bytes[at].toString(16).padStart(2, '0')}) starts no UTF-8 character; save the file as UTF-8`);
  }
}

/** A text file's content (UTF-8) without a leading BOM; `what` names it in errors ("--spec", "preset"). */
export function readTextFile(file: string, what: string): string {
  let text: string;
  try {
    if (statSync(file).isDirectory()) throw new Error('is a directory, expected a file');
    text = decodeUtf8(readFileSync(file));
  } catch (e) {
    throw new Error(`${what} ${file}: ${reason(e)}`);
  }
  return withoutBom(text);
}

/** A JSON file's value (see readTextFile); an empty file or bad JSON names the file. */
export function readJsonFile(file: string, what: string): unknown {
  const text = readTextFile(file, what);
  if (text.trim() === '') throw new Error(`${what} ${file}: the file is empty, expected JSON`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} ${file}: not valid JSON (${errorText(e)})`);
  }
  const deep = depthError(value, 'the JSON');
  if (deep) throw new Error(`${what} ${file}: ${deep}`);
  return value;
}

/** Run `parse` on a file's content; its error is prefixed with the file unless it names it already. */
export function parseFile<T>(file: string, what: string, read: (file: string, what: string) => unknown, parse: (x: unknown) => T): T {
  const x = read(file, what);
  try {
    return parse(x);
  } catch (e) {
    const msg = errorText(e);
    throw new Error(msg.includes(file) ? msg : `${what} ${file}: ${msg}`);
  }
}

function writing(file: string, what: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw new Error(`${what} ${file}: cannot write (${(e as NodeJS.ErrnoException).code ?? reason(e)})`);
  }
}

export function writeTextFile(file: string, text: string, what = '--out'): void {
  writing(file, what, () => writeFileSync(file, text));
}

export function appendTextFile(file: string, text: string, what = '--out'): void {
  writing(file, what, () => appendFileSync(file, text));
}

/** One JSON value as text with NaN / ±Infinity as strings (JSON.stringify would write null). */
export function jsonText(value: unknown, space?: number): string {
  return stringifyWithNonFinite(value, space);
}
