// The parquet reader the import pipeline needs, as an interface: the core reads no file format
// library itself. The worker and the CLI pass the hyparquet adapter (src/io/hyparquet.ts).
import type { Rec } from '../formats/common';

/** Random access to a file's bytes (a File, a Node file, a buffer). */
export interface ByteFile {
  byteLength: number;
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

export interface ParquetColumn {
  name: string;
  /** A flat numeric column (double, float, int32, int64): a reward candidate. */
  numeric: boolean;
}

export interface ParquetTable {
  columns: ParquetColumn[];
  /** Rows in each row group, in file order: the pipeline reads one group at a time. */
  rowGroups: number[];
  /** Rows [start, end) as plain records keyed by column name. */
  read(start: number, end: number): Promise<Rec[]>;
}

/** Opens a parquet file; throws when the bytes are not a readable parquet file. */
export type ParquetOpen = (file: ByteFile) => Promise<ParquetTable>;
