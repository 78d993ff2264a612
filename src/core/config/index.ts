// The config module: the schema table (schema.ts) and everything read from it — validation, the
// JSON codec, text values, the query codec. Import settings from here, never list them elsewhere.
export * from './schema';
export * from './field';
export * from './validate';
export * from './json';
export * from './text';
export * from './query';
export { taskStateCount } from './task';
