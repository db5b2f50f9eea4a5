// End-to-end test of the tester's "Beyond robots.txt" view: starts
// "robotstxt serve" on 127.0.0.1, pastes a page's headers, HTML and
// tdmrep.json in headless Chromium, and checks the answer for each use.
// run.sh sets it up; the environment is tester.test.mjs's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const OUT = process.env.OUT || 'out';
const TIMEOUT = 10_000;
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let server;
let base;
let browser;

before(async () => {
  mkdirSync(OUT, { recursive: true });
  server = spawn(process.env.ROBOTSTXT, ['serve', '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve(m[0]);
    });
    setTimeout(() => reject(new Error('robotstxt serve printed no address: ' + out)), TIMEOUT);
  });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

async function until(f) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    try {
      return await f();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function answers(page) {
  return page.$$eval('#sig-results tbody tr', (trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim()).join(' | ')));
}

test('pasted headers, HTML and tdmrep.json give an answer per use', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1600 } });
  await page.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
  page.on('pageerror', (err) => assert.fail('page error: ' + err.message));
  await page.goto(base);
  await page.fill('#robots', 'User-agent: *\nDisallow: /private/\nContent-Signal: search=yes\n');
  await page.fill('#agent', 'EvalBot');
  await page.fill('#sig-url', 'https://example.com/articles/1');
  await page.fill('#sig-headers', 'HTTP/1.1 200 OK\nX-Robots-Tag: evalbot: noindex\nX-Robots-Tag: otherbot: nosnippet');
  await page.fill('#sig-html', '<html><head><meta name="robots" content="max-snippet:50"></head><body><meta name="robots" content="noai"></body></html>');
  await page.fill('#sig-tdmrep', '[{"location": "/articles/", "tdm-reservation": 1}]');
  await until(async () => assert.deepEqual(await answers(page), [
    'fetch | allow | robots.txt: no matching rule',
    'index | deny | x-robots-tag: evalbot: noindex',
    'snippet | conditional | meta: max-snippet:50',
    'ai-input | conditional | meta: max-snippet:50',
    'ai-train | deny | tdmrep: /.well-known/tdmrep.json: /articles/ tdm-reservation 1',
  ]));
  const notes = await page.$$eval('#sig-notes li', (lis) => lis.map((li) => li.textContent));
  assert.ok(notes.some((n) => n.includes('after the head')), 'the meta tag in the body is reported: ' + notes);
  // A path robots.txt disallows: nothing of the page counts.
  await page.fill('#sig-url', 'https://example.com/private/x');
  await until(async () => assert.equal((await answers(page))[1], 'index | allow | content-signal: robots.txt line 3: search=yes'));
  await page.locator('section.signals').screenshot({ path: join(OUT, 'signals.png') });
  await page.close();
});
