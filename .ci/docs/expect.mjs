// Whether the lines a page shows appear, in order, in what a block printed.
// A line matches when it is equal; when it is JSON (or an SSE "data:" line of JSON), when both
// parse to the same value, object keys in any order; "…" stands for any text, also inside a
// JSON string; an SSE "id:" line stands for any event id (they are random). Usage: node expect.mjs EXPECTED ACTUAL [WAIT_SECONDS]
import { readFileSync, existsSync } from 'node:fs';

const [expectedFile, actualFile, waitArg] = process.argv.slice(2);
const expected = readFileSync(expectedFile, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
const deadline = Date.now() + Number(waitArg ?? 0) * 1000;

const pattern = (text) => new RegExp('^' + text.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's');

function json(text) {
  const prefix = /^(data:\s?)?/.exec(text)[0];
  try {
    const body = text.slice(prefix.length);
    return /^[[{]/.test(body) ? { prefix: prefix.trim(), value: JSON.parse(body) } : null;
  } catch {
    return null;
  }
}

function same(want, got) {
  if (typeof want === 'string') return typeof got === 'string' && pattern(want).test(got);
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => same(w, got[i]));
  if (want && typeof want === 'object') {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return false;
    const keys = Object.keys(want);
    return keys.length === Object.keys(got).length && keys.every((k) => k in got && same(want[k], got[k]));
  }
  return want === got;
}

function matches(want, got) {
  if (want.startsWith('id:')) return got.startsWith('id:');
  const w = json(want);
  if (w) {
    const g = json(got);
    return g !== null && g.prefix === w.prefix && same(w.value, g.value);
  }
  return pattern(want).test(got);
}

function check() {
  const actual = existsSync(actualFile) ? readFileSync(actualFile, 'utf8').split('\n').map((l) => l.replace(/\r$/, '').trim()) : [];
  let at = 0;
  for (let i = 0; i < expected.length; i++) {
    while (at < actual.length && !matches(expected[i], actual[at])) at++;
    if (at === actual.length) return { missing: expected[i], actual };
    at++;
  }
  return null;
}

for (;;) {
  const failure = check();
  if (!failure) process.exit(0);
  if (Date.now() >= deadline) {
    console.error(`missing, in this order: ${failure.missing}\n--- the output was:\n${failure.actual.join('\n')}`);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 250));
}
