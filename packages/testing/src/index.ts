export * from './engines.ts'
