export * from './elements.js';
export * from './params.js';
