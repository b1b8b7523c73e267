#!/usr/bin/env node
// Rewrites the family index of docs/markets.md from the family descriptors (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { familyIndexTable, INDEX_BEGIN, INDEX_END } from '../dist/src/domain/families/docs-index.js';

const path = 'docs/markets.md';
const doc = readFileSync(path, 'utf8');
const from = doc.indexOf(INDEX_BEGIN);
const to = doc.indexOf(INDEX_END);
if (from < 0 || to < from) throw new Error(`${path} has no family index markers`);
writeFileSync(path, `${doc.slice(0, from + INDEX_BEGIN.length)}\n\n${familyIndexTable()}\n\n${doc.slice(to)}`);
// The table is written unaligned; prettier aligns it as `npm run lint` expects.
execFileSync('npx', ['prettier', '--write', path], { stdio: 'inherit' });
