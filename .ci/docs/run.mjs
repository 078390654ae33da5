// Runs the shell blocks of a Markdown page the way a reader pastes them, and checks that
// what they print is what the page shows. A block is run only when an HTML comment right
// above it says how:
//   <!-- doc-test: server ready=URL[,URL…] -->   stop whatever earlier blocks started, start it in
//                                                the background and wait until every URL answers
//   <!-- doc-test: background name=N [ready=T] --> start it in the background, its output kept as N
//                                                (and wait until that output shows the text T)
//   <!-- doc-test: run -->                       run it to the end; it must exit 0
//   <!-- doc-test: expect [of=N] -->             the text block's lines must appear, in order, in
//                                                the output of the last run block (or of N; see
//                                                expect.mjs for what counts as the same line)
// All blocks of a page run in one bash, so variables carry from block to block as they do
// in a reader's terminal. Usage: node run.mjs PAGE.md [RESULTS_DIR]
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve, dirname, basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const page = resolve(process.argv[2]);
const results = resolve(process.argv[3] ?? join(root, 'docs-results', basename(page, '.md')));
mkdirSync(results, { recursive: true });

export function blocks(markdown) {
  const lines = markdown.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- doc-test: (\w+)(.*?) -->$/.exec(lines[i]);
    if (!marker) continue;
    const fence = /^```(\w*)$/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`${page}:${i + 1}: a doc-test marker must stand right above a fenced block`);
    let end = i + 2;
    while (end < lines.length && lines[end] !== '```') end++;
    const options = Object.fromEntries([...marker[2].matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    found.push({ kind: marker[1], options, line: i + 2, text: lines.slice(i + 2, end).join('\n') + '\n' });
    i = end;
  }
  return found;
}

const found = blocks(readFileSync(page, 'utf8'));
if (found.length === 0) {
  console.error(`${page}: no doc-test blocks`);
  process.exit(2);
}
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const script = [
  '#!/usr/bin/env bash',
  '# No set -e, -u or pipefail: blocks run as in a reader\'s terminal; each run block\'s status is checked.',
  'set -m  # every background block gets a process group of its own, stopped as a whole',
  `cd ${q(root)}`,
  'pids=()',
  'stop_all() {',
  '  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done',
  '  for p in "${pids[@]}"; do for i in $(seq 1 100); do kill -0 -- "-$p" 2>/dev/null || break; sleep 0.2; done;'
    + ' kill -KILL -- "-$p" 2>/dev/null; done',
  '}',
  'trap stop_all EXIT',
  'fail() { echo "doc-test FAILED: $*" >&2; exit 1; }',
];
let last = null;
found.forEach((block, n) => {
  const file = join(results, `${n + 1}.sh`);
  const out = join(results, `${n + 1}.out`);
  const where = `${basename(page)}:${block.line}`;
  if (block.kind !== 'expect') writeFileSync(file, block.text);
  script.push(`echo "== ${where} (${block.kind})"`);
  switch (block.kind) {
    case 'server': {
      // A page tells the reader to stop what runs before it starts another server.
      script.push('stop_all; pids=()');
      for (const url of (block.options.ready ?? '').split(',').filter(Boolean)) {
        script.push(`! curl -s -o /dev/null ${q(url)} || fail "${where}: something already answers at ${url}"`);
      }
      script.push(`{ source ${q(file)}; } > ${q(out)} 2>&1 < /dev/null & pids+=($!)`);
      for (const url of (block.options.ready ?? '').split(',').filter(Boolean)) {
        script.push(`for i in $(seq 1 ${Number(block.options.timeout ?? 300)}); do curl -sf -o /dev/null ${q(url)} && break;`
          + ` kill -0 "${'$'}{pids[-1]}" 2>/dev/null || { cat ${q(out)}; fail "${where}: the server stopped"; }; sleep 1; done`);
        script.push(`curl -sf -o /dev/null ${q(url)} || { tail -50 ${q(out)}; fail "${where}: ${url} does not answer"; }`);
      }
      break;
    }
    case 'background': {
      const out = join(results, block.options.name + '.out');
      // stderr apart: curl's progress meter, which a terminal does not show, would split lines
      script.push(`{ source ${q(file)}; } > ${q(out)}`
        + ` 2> ${q(join(results, block.options.name + '.err'))} < /dev/null & pids+=($!)`);
      if (block.options.ready) {
        // What a reader sees before going on to the next terminal.
        script.push(`for i in $(seq 1 120); do grep -qF ${q(block.options.ready)} ${q(out)} && break; sleep 0.25; done`);
        script.push(`grep -qF ${q(block.options.ready)} ${q(out)} || fail "${where}: no ${block.options.ready} within 30 s"`);
      }
      break;
    }
    case 'run':
      script.push(`source ${q(file)} > ${q(out)} 2>&1 < /dev/null; rc=$?; cat ${q(out)}`);
      script.push(`[ $rc -eq 0 ] || fail "${where}: exit status $rc"`);
      last = out;
      break;
    case 'expect': {
      const expected = join(results, `${n + 1}.expected`);
      writeFileSync(expected, block.text);
      const actual = block.options.of ? join(results, block.options.of + '.out') : last;
      if (!actual) throw new Error(`${where}: nothing ran before this expectation`);
      const wait = block.options.of ? 20 : 0;
      script.push(`node ${q(join(here, 'expect.mjs'))} ${q(expected)} ${q(actual)} ${wait} || fail "${where}: the output differs from the page"`);
      break;
    }
    default:
      throw new Error(`${where}: unknown doc-test kind ${block.kind}`);
  }
});
script.push(`echo "== ${basename(page)}: ${found.length} blocks passed"`);
const scriptFile = join(results, 'page.sh');
writeFileSync(scriptFile, script.join('\n') + '\n');
const run = spawnSync('bash', [scriptFile], { stdio: 'inherit' });
process.exit(run.status ?? 1);
