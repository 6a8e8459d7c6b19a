export * from './dom.js';
export * from './document.js';
export * from './envelope.js';
export * from './errors.js';
export * from './parse.js';
export * from './read.js';
export * from './values.js';
export * from './write.js';
