export * from './pages.js';
export * from './pretty.js';
export * from './samples.js';
export * from './serve.js';
