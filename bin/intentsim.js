#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader: no build step, always the current sources.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
