#!/usr/bin/env node
// The evgen command. The CLI is TypeScript run through tsx, so this repository needs no build
// step; tsconfig.json maps @evgen/runtime to its source.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./main.ts');
