/**
 * Page script of the sample read-back fixture (tests/e2e/sample-read.test.ts): the rollout viewer's
 * reads of a verl step file, all at once as a page of rows reads them, through what the import worker
 * opens files with: a picked File (pickedFiles) and a followed folder (handleFolder over the Origin
 * Private File System, followedFiles). Exposes `window.sampleRead` for Playwright.
 */
import { SampleTextReader, followedFiles } from '../../src/core/import/browse/index';
import { handleFolder } from '../../src/io/folder-handle';
import { pickedFiles } from '../../workers/import-browse';

export interface SampleReadPage {
  /** The response (or the error) of each of `lines` (0-based) of a file of `text`, read at once, `chunk` bytes indexed per slice. */
  picked(text: string, lines: number[], chunk: number): Promise<string[]>;
  followed(text: string, lines: number[], chunk: number): Promise<string[]>;
}

function readAll(reader: SampleTextReader, lines: number[]): Promise<string[]> {
  return Promise.all(lines.map((i) => reader.read('1.jsonl', i).then((t) => t.response, (e: Error) => e.message)));
}

const sampleRead: SampleReadPage = {
  picked: (text, lines, chunk) => readAll(new SampleTextReader('verl', pickedFiles([new File([text], '1.jsonl')]), undefined, chunk), lines),
  async followed(text, lines, chunk) {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('sample-read', { recursive: true }).catch(() => undefined);
    const dir = await root.getDirectoryHandle('sample-read', { create: true });
    const w = await (await dir.getFileHandle('1.jsonl', { create: true })).createWritable();
    await w.write(text);
    await w.close();
    return readAll(new SampleTextReader('verl', followedFiles(handleFolder(dir), () => performance.now()), undefined, chunk), lines);
  },
};

declare global {
  interface Window {
    sampleRead: SampleReadPage;
  }
}

window.sampleRead = sampleRead;
document.getElementById('status')!.textContent = 'ready';
document.body.dataset.ready = '1';
