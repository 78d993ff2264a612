// A worker thread that runs one of this repository's TypeScript modules. A forked process inherits
// the tsx loader the CLI runs under (its execArgv), a worker thread on Node 20 does not: the thread
// registers tsx's ESM hooks itself (tsx/esm/api) before it imports the module.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const BOOT = `const { workerData } = require('node:worker_threads');
(workerData.tsx ? import(workerData.tsx).then(({ register }) => register()) : Promise.resolve()).then(() => import(workerData.entry));`;

/** tsx's ESM API (the ESM build: the CLI's modules are ESM). */
const tsxApi = () => pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');

/** A worker thread on `entry` (a .ts module of this repository, or plain JavaScript). */
export function tsWorker(entry: URL): Worker {
  return new Worker(BOOT, { eval: true, workerData: { entry: entry.href, tsx: entry.pathname.endsWith('.ts') ? tsxApi() : null } });
}
