// hyparquet behind the core's ParquetOpen interface (src/core/import/read/parquet.ts), shared by the
// import worker, the CLI and the tests.
import { parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { Rec } from '../core/import/formats/common';
import type { ParquetOpen } from '../core/import/read/parquet';

const NUMERIC = new Set(['DOUBLE', 'FLOAT', 'INT32', 'INT64']);

export const openParquet: ParquetOpen = async (file) => {
  const metadata = await parquetMetadataAsync(file);
  return {
    columns: parquetSchema(metadata).children.map((c) => ({
      name: c.element.name,
      numeric: !c.children.length && NUMERIC.has(String(c.element.type)),
    })),
    rowGroups: metadata.row_groups.map((g) => Number(g.num_rows)),
    read: async (rowStart, rowEnd) => (await parquetReadObjects({ file, metadata, rowStart, rowEnd })) as Rec[],
  };
};
