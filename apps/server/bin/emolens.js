#!/usr/bin/env node
// Runs the TypeScript entry point through tsx (see docs/decisions/003-typescript-at-runtime.md).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
