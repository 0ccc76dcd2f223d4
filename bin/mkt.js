#!/usr/bin/env node
// Thin bin: run main and hand its exit code to the process.
import { main } from '../dist/src/main.js';

process.exitCode = await main(process.argv.slice(2));
