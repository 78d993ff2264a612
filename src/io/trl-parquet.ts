// One step of a lab run as TRL's `completions_{step:05d}.parquet` bytes (hyparquet-writer, a dev
// dependency: used by the example writer and the import tests, never by the page).
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Config } from '../core/config';
import { trlColumns } from '../core/import/formats/export';
import type { SampleTrace } from '../core/metrics';

export function trlParquet(config: Config, traces: readonly SampleTrace[], step: number): { name: string; bytes: Uint8Array } {
  const { name, columns } = trlColumns(config, traces, step);
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'step', data: columns.step.map(BigInt), type: 'INT64' },
      { name: 'prompt', data: columns.prompt, type: 'STRING' },
      { name: 'completion', data: columns.completion, type: 'STRING' },
      { name: 'lab_reward', data: columns.lab_reward, type: 'DOUBLE' },
      { name: 'advantage', data: columns.advantage, type: 'DOUBLE' },
    ],
  });
  return { name, bytes: new Uint8Array(buf) };
}
