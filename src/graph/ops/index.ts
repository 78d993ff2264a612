// The op vocabulary of the graph builder. Importing it registers every backward rule.
export * from './elementwise';
export * from './reduce';
export * from './shape';
export * from './matmul';
export * from './norm';
