// End-to-end test of the robots.txt tester: starts "robotstxt serve" on
// 127.0.0.1, drives the page in headless Chromium (Debian's, through
// playwright-core), types a file, an agent and URLs, and checks the
// verdicts, the highlighted lines and the diagnostics; then loads a live
// file from a site on 127.0.0.1 through a server started with -allow-fetch.
// run.sh sets it up.
//
// Environment: ROBOTSTXT, the robotstxt binary (required); CHROMIUM, the
// browser (default /usr/bin/chromium); OUT, where the screenshots go
// (default ./out); BIG_FILE, testdata/realworld/avuim__www.expert.de.txt,
// the largest real file, to time the page on (skipped when unset).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const OUT = process.env.OUT || 'out';
const TIMEOUT = 10_000; // ms to wait for the page to show an answer

// Flags that keep Chromium quiet on a closed network (see go.md).
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const servers = []; // the robotstxt serve processes
let base; // the URL of the first, http://127.0.0.1:port/
let browser;

// startServer runs robotstxt serve with args on a free loopback port and
// resolves to the URL it prints.
function startServer(...args) {
  const bin = process.env.ROBOTSTXT;
  assert.ok(bin, 'ROBOTSTXT must name the robotstxt binary');
  const proc = spawn(bin, ['serve', '-addr', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  servers.push(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve(m[0]);
    });
    proc.on('exit', (code) => reject(new Error(`robotstxt serve exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error('robotstxt serve printed no address: ' + out)), TIMEOUT);
  });
}

before(async () => {
  mkdirSync(OUT, { recursive: true });
  base = await startServer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS, // playwright gives each launch a new, empty profile
  });
});

after(async () => {
  if (browser) await browser.close();
  for (const s of servers) s.kill();
});

// newPage opens the tester at url in a page that can reach nothing but it.
async function newPage(height = 860, url = base) {
  const page = await browser.newPage({ viewport: { width: 1400, height } });
  await page.route('**/*', (route) =>
    route.request().url().startsWith(url) ? route.continue() : route.abort());
  page.on('pageerror', (err) => assert.fail('page error: ' + err.message));
  await page.goto(url);
  return page;
}

// rows returns the verdict table as [verdict, url, why] strings.
function rows(page) {
  return page.$$eval('#results tbody tr', (trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
}

// until polls f until it returns without throwing, or rethrows at the
// deadline.
async function until(f, timeout = TIMEOUT) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await f();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

// marked returns the lines highlighted in the editor, as "line:classes".
function marked(page) {
  return page.$$eval('#marks .mark', (ms) =>
    ms.map((m) => m.dataset.line + ':' + [...m.classList].filter((c) => c !== 'mark').sort().join(' '))
      .sort((a, b) => parseInt(a) - parseInt(b)));
}

const FILE = [
  'User-agent: *', // 1
  'Disallow: /private/', // 2
  'Allow: /private/press/', // 3
  '', // 4
  'User-agent: Googlebot-Image', // 5
  'Disallow: /', // 6
  '', // 7
  'Disalow: /typo', // 8
].join('\n');

test('the example file is loaded and tested at once', async () => {
  const page = await newPage();
  assert.match(await page.inputValue('#robots'), /^# This robots.txt file controls crawling/);
  await until(async () => assert.deepEqual(await rows(page), [
    ['Allowed', 'https://example.com/', 'allowed: no rule of the group matches'],
    ['Allowed', 'https://example.com/includes/app.js', 'line 9 Allow: /includes/'],
    ['Allowed', 'https://example.com/private/report.html', 'allowed: no rule of the group matches'],
  ]));
  assert.equal(await page.textContent('#gutter'), Array.from({ length: 11 }, (_, i) => i + 1).join('\n'));
  await page.close();
});

test('typing a file, an agent and URLs shows verdicts and deciding lines', async () => {
  const page = await newPage();
  await page.click('#robots');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(FILE);
  await page.fill('#agent', 'Googlebot');
  await page.fill('#urls', [
    'https://example.com/private/x',
    'https://example.com/private/press/1',
    '/',
    'not a url',
  ].join('\n'));

  await until(async () => assert.deepEqual(await rows(page), [
    ['Disallowed', 'https://example.com/private/x', 'line 2 Disallow: /private/'],
    ['Allowed', 'https://example.com/private/press/1', 'line 3 Allow: /private/press/'],
    ['Allowed', '/', 'allowed: no rule of the group matches'],
    ['Not a URL', 'not a url', 'not a URL: give an absolute URL (such as https://example.com/a) or a path starting with "/"'],
  ]));
  assert.equal(await page.textContent('#summary'), '2 allowed, 1 disallowed, 1 not a URL, for Googlebot. No group names this crawler: the * groups apply.');
  await until(async () => assert.deepEqual(await marked(page), [
    '2:disallow', '3:allow', '8:diag-warning',
  ]));

  // Following the deciding line of the first URL marks it and moves the
  // caret there; the mark sits on line 2 of the text.
  await page.click('#results tbody tr:first-child button.line');
  await until(async () => assert.ok((await marked(page)).includes('2:current disallow')));
  const caret = await page.$eval('#robots', (t) => t.value.slice(0, t.selectionStart).split('\n').length);
  assert.equal(caret, 2);
  const box = await page.locator('#marks .mark.current').boundingBox();
  const area = await page.locator('#robots').boundingBox();
  assert.equal(Math.round(box.y - area.y), 8 + 20); // --pad + one --line
  await page.screenshot({ path: join(OUT, 'typed.png') });

  // Another agent, another group.
  await page.fill('#agent', 'Googlebot-Image');
  await until(async () => assert.deepEqual((await rows(page)).map((r) => r[0] + ' ' + r[2]), [
    'Disallowed line 6 Disallow: /',
    'Disallowed line 6 Disallow: /',
    'Disallowed line 6 Disallow: /',
    'Not a URL not a URL: give an absolute URL (such as https://example.com/a) or a path starting with "/"',
  ]));

  // A User-Agent header is cut to its product token, with a warning, as
  // the command line does (robots.CrawlerToken).
  await page.fill('#agent', 'Googlebot-Image/1.0 (+http://www.google.com/bot.html)');
  await until(async () => assert.match(await page.textContent('#agent-warnings'), /asking as "Googlebot-Image"/));
  await until(async () => assert.equal((await rows(page))[0][0] + ' ' + (await rows(page))[0][2], 'Disallowed line 6 Disallow: /'));

  // The typo on line 8 is diagnosed next to its line.
  await until(async () => {
    const note = await page.$eval('#notes .note[data-line="8"]', (n) => n.textContent);
    assert.match(note, /disalow/i);
  });
  await page.close();
});

test('screenshot of the page for the README', async () => {
  const page = await newPage(1000);
  await page.fill('#robots', [
    '# robots.txt for https://example.com',
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/press/',
    'Crawl-delay: 10',
    'Disallow: search',
    '',
    'User-agent: Googlebot-Image',
    'Disallow: /photos/',
    '',
    'User-agent: GPTBot',
    'Disallow: /',
    '',
    'Sitemap: https://example.com/sitemap.xml',
  ].join('\n'));
  await page.fill('#urls', [
    'https://example.com/private/report.pdf',
    'https://example.com/private/press/launch.html',
    'https://example.com/photos/cat.jpg',
    'https://example.com/search?q=robots',
    'example.com/about',
  ].join('\n'));
  await until(async () => assert.equal((await rows(page)).length, 5));
  await page.hover('#results tbody tr:first-child');
  await until(async () => assert.ok((await marked(page)).some((m) => m.startsWith('3:') && m.includes('current'))));
  await page.waitForTimeout(300); // let the diagnostics settle
  await page.screenshot({ path: join(OUT, 'tester.png') });
  await page.close();
});

test('the audit view lists the known crawlers and what the file does to them', async () => {
  const page = await newPage();
  await page.fill('#robots', [
    'User-agent: GPTBot', // 1
    'User-agent: CCBot', // 2
    'Disallow: /', // 3
    '', // 4
    'User-agent: *', // 5
    'Content-Signal: search=yes, ai-train=no', // 6
    'Disallow: /private/', // 7
  ].join('\n'));
  await until(async () => assert.equal(await page.textContent('#audit-summary'),
    'The file blocks 2 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: no; search: yes. Paths sampled: / /private/.'));
  const audit = await page.$$eval('#audit tbody tr', (trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
  const row = (token) => audit.find((r) => r[0].startsWith(token + ' ('));
  assert.deepEqual(row('GPTBot'), ['GPTBot (OpenAI)', 'training', 'Disallowed', 'line 3 Disallow: /', '']);
  assert.deepEqual(row('Googlebot'), ['Googlebot (Google)', 'search', 'Allowed', 'allowed: no rule of the group matches',
    'search=yes, ai-train=no']);
  assert.match(row('ChatGPT-User')[0], /may ignore robots\.txt/);

  // The deciding line of a crawler leads to the line in the editor.
  await page.click('#audit tbody tr:has(td:text-is("GPTBot (OpenAI)")) button.line');
  await until(async () => assert.ok((await marked(page)).some((m) => m.startsWith('3:') && m.includes('current'))));
  await page.close();
});

test('without -allow-fetch there is no way to load a live file', async () => {
  const page = await newPage();
  assert.equal(await page.$('#fetch-form'), null);
  await page.close();
});

test('with -allow-fetch, a live file is loaded through the server', async () => {
  // A site on 127.0.0.1 with a robots.txt at one port and none at another.
  const site = createServer((req, res) => {
    if (req.url !== '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /live/\n');
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteURL = `http://127.0.0.1:${site.address().port}/`;
  try {
    const url = await startServer('-allow-fetch', '-allow-private'); // the site is on 127.0.0.1
    const page = await newPage(860, url);
    await page.fill('#urls', 'https://example.com/live/a');
    await page.fill('#fetch-url', siteURL + 'some/page');
    await page.click('#fetch-form button');
    await until(async () => assert.equal(await page.inputValue('#robots'), 'User-agent: *\nDisallow: /live/\n'));
    assert.match(await page.textContent('#fetch-status'), /^Loaded http:\/\/127\.0\.0\.1:\d+\/robots\.txt \(status 200, 31 bytes\)\.$/);
    assert.equal(await page.textContent('.source'), `(${siteURL}robots.txt)`);
    await until(async () => assert.deepEqual(await rows(page), [
      ['Disallowed', 'https://example.com/live/a', 'line 2 Disallow: /live/'],
    ]));

    // A 404 leaves the editor as it is, and says what Google does.
    site.close();
    const missing = createServer((req, res) => res.writeHead(404).end());
    await new Promise((resolve) => missing.listen(0, '127.0.0.1', resolve));
    await page.fill('#fetch-url', `http://127.0.0.1:${missing.address().port}/`);
    await page.click('#fetch-form button');
    await until(async () => assert.match(await page.textContent('#fetch-status'), /answered 404: there is no robots.txt, so Google allows everything/));
    assert.equal(await page.inputValue('#robots'), 'User-agent: *\nDisallow: /live/\n');
    missing.close();
    await page.close();
  } finally {
    site.close();
  }
});

test('a large file is answered', { skip: !process.env.BIG_FILE }, async () => {
  const page = await newPage();
  const body = readFileSync(process.env.BIG_FILE, 'utf8');
  const paths = ['', 'suche?q=', 'api/', 'shop/unsere-produkte/tv/x.html?adword=', 'handbuch.pdf?', 'p/'];
  await page.fill('#urls', Array.from({ length: 20 }, (_, i) => `https://www.expert.de/${paths[i % paths.length]}${i}`).join('\n'));
  await until(async () => assert.equal((await rows(page)).length, 20));
  // Time from the change of the file to the verdicts shown, debounce
  // included.
  const ms = await page.evaluate(async (text) => {
    const t = document.getElementById('robots');
    const tbody = document.querySelector('#results tbody');
    const start = performance.now();
    const shown = new Promise((resolve) => new MutationObserver(resolve).observe(tbody, { childList: true }));
    t.value = text;
    t.dispatchEvent(new Event('input'));
    await shown;
    return performance.now() - start;
  }, body);
  await page.screenshot({ path: join(OUT, 'large.png') });
  const got = await rows(page);
  assert.equal(got.length, 20);
  assert.deepEqual(got[1], ['Disallowed', 'https://www.expert.de/suche?q=1', 'line 7 Disallow: /suche']);
  assert.deepEqual(got[2], ['Disallowed', 'https://www.expert.de/api/2', 'line 5 Disallow: /api/']);
  assert.equal(await page.$eval('#gutter', (g) => g.textContent.split('\n').length), body.split('\n').length);
  console.log(`# large file (${body.length} chars): verdicts shown ${ms.toFixed(0)} ms after the change (250 ms of it debounce)`);
  await page.close();
});
