// robots.txt tester: sends the file, agents and URLs to the JSON API as the
// user types, and shows the verdicts and diagnostics beside the lines.
'use strict';

const LINE = 20; // px, --line in style.css
const PAD = 8; // px, --pad in style.css
const DEBOUNCE = 250; // ms

const $ = (id) => document.getElementById(id);
const robots = $('robots');
const agentInput = $('agent');
const urlsInput = $('urls');
const gutter = $('gutter');
const notes = $('notes');
const marks = document.createElement('div');
$('marks').append(marks);

let lineCount = 0;
let results = []; // of /api/test
let diagnostics = []; // of /api/check
let current = 0; // the line marked as current, 0 for none
let checked = null; // the text of the last /api/check
const pending = {}; // AbortController per endpoint

// Reasons a URL is allowed when no rule decided, as /api/test spells them.
const reasons = {
  'no matching rule': 'allowed: no rule of the group matches',
  'empty group': 'allowed: the group naming this crawler has no rules',
  'no group': 'allowed: no group names this crawler and there is no * group',
  'robots.txt is always allowed': 'allowed: /robots.txt itself is always allowed',
};

// post sends body to the API endpoint path and returns the answer. A newer
// call to the same endpoint aborts an older one.
async function post(path, body) {
  if (pending[path]) pending[path].abort();
  const ctl = new AbortController();
  pending[path] = ctl;
  const resp = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: ctl.signal,
  });
  const data = await resp.json();
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}

// el makes an element with a class and text.
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// lineButton makes a button that shows line n in the editor.
function lineButton(n) {
  const b = el('button', 'line', 'line ' + n);
  b.type = 'button';
  b.addEventListener('click', (ev) => {
    ev.stopPropagation();
    goToLine(n);
  });
  return b;
}

// goToLine scrolls the editor to line n, marks it and puts the caret there.
function goToLine(n) {
  const lines = robots.value.split('\n');
  let start = 0;
  for (let i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
  robots.focus({ preventScroll: true });
  robots.setSelectionRange(start, start);
  robots.scrollTop = Math.max(0, (n - 1) * LINE - robots.clientHeight / 3);
  setCurrent(n);
}

function setCurrent(n) {
  current = n;
  renderMarks();
}

// renderGutter writes the line numbers.
function renderGutter() {
  const n = robots.value.split('\n').length;
  if (n === lineCount) return;
  lineCount = n;
  const nums = new Array(n);
  for (let i = 0; i < n; i++) nums[i] = i + 1;
  gutter.textContent = nums.join('\n');
  syncScroll();
}

// syncScroll moves the gutter, marks and notes with the text.
function syncScroll() {
  const t = `translateY(${-robots.scrollTop}px)`;
  gutter.style.transform = t;
  notes.style.transform = t;
  marks.style.transform = t;
}

// renderMarks highlights the deciding lines, the lines with diagnostics and
// the current line.
function renderMarks() {
  const kinds = new Map(); // line -> classes
  const add = (line, cls) => kinds.set(line, (kinds.get(line) || '') + ' ' + cls);
  for (const d of diagnostics) if (d.line > 0) add(d.line, 'diag-' + d.severity);
  for (const r of results) if (r.rule) add(r.rule.line, r.rule.allow ? 'allow' : 'disallow');
  if (current > 0) add(current, 'current');
  marks.replaceChildren();
  for (const [line, cls] of kinds) {
    const m = el('div', 'mark' + cls);
    m.dataset.line = line;
    m.style.top = PAD + (line - 1) * LINE + 'px';
    marks.append(m);
  }
  for (const tr of $('results').tBodies[0].rows) {
    tr.classList.toggle('current', current > 0 && tr.dataset.line === String(current));
  }
}

// describe returns the explanation of a result, as nodes.
function describe(r) {
  if (r.error) return [r.error];
  if (!r.rule) return [reasons[r.reason] || r.reason];
  const kind = r.rule.allow ? 'Allow' : 'Disallow';
  return [lineButton(r.rule.line), ' ', el('code', '', `${kind}: ${r.rule.pattern}`)];
}

function renderResults(resp, agents) {
  results = resp.results;
  const body = $('results').tBodies[0];
  body.replaceChildren();
  let allowed = 0, disallowed = 0, invalid = 0;
  for (const r of results) {
    const kind = r.error ? 'invalid' : r.allowed ? 'allowed' : 'disallowed';
    if (r.error) invalid++;
    else if (r.allowed) allowed++;
    else disallowed++;
    const tr = el('tr', kind);
    if (r.rule) {
      tr.dataset.line = r.rule.line;
      tr.addEventListener('mouseenter', () => setCurrent(r.rule.line));
      tr.addEventListener('click', () => goToLine(r.rule.line));
    }
    const verdict = el('td');
    verdict.append(el('span', 'verdict', r.error ? 'Not a URL' : r.allowed ? 'Allowed' : 'Disallowed'));
    const why = el('td', 'why');
    why.append(...describe(r));
    tr.append(verdict, el('td', 'url', r.url), why);
    body.append(tr);
  }
  const parts = [];
  if (allowed) parts.push(`${allowed} allowed`);
  if (disallowed) parts.push(`${disallowed} disallowed`);
  if (invalid) parts.push(`${invalid} not a URL`);
  let summary = parts.length ? `${parts.join(', ')}, for ${agents.join(', ')}.` : 'No URLs to test.';
  // Whether the "*" groups apply depends on the agents only: say it once.
  if (results.some((r) => r.global)) summary += ' No group names this crawler: the * groups apply.';
  $('summary').textContent = summary;
  const warnings = $('agent-warnings');
  warnings.replaceChildren(...(resp.warnings || []).map((w) => el('li', '', w)));
  renderInfo(resp);
  renderMarks();
}

function renderDiagnostics(resp) {
  diagnostics = resp.diagnostics;
  const list = $('diagnostics');
  list.replaceChildren();
  const byLine = new Map();
  for (const d of diagnostics) {
    const li = el('li', d.severity);
    li.append(el('span', 'sev', d.severity));
    if (d.line > 0) li.append(lineButton(d.line), ': ');
    li.append(d.message, ' ', el('code', 'code', `(${d.code})`));
    list.append(li);
    if (d.line > 0) {
      if (!byLine.has(d.line)) byLine.set(d.line, []);
      byLine.get(d.line).push(d);
    }
  }
  if (diagnostics.length === 0) list.append(el('li', '', 'No problems found.'));
  notes.replaceChildren();
  for (const [line, ds] of byLine) {
    const text = ds.map((d) => d.message).join('; ');
    const n = el('div', 'note ' + ds[0].severity, text);
    n.title = text;
    n.dataset.line = line;
    n.style.top = PAD + (line - 1) * LINE + 'px';
    notes.append(n);
  }
  renderInfo(resp);
  renderMarks();
}

// signalText writes the Content-Signal values a crawler is given.
function signalText(s) {
  const parts = ['search', 'ai-input', 'ai-train']
    .filter((k) => s[k] !== 'unknown')
    .map((k) => `${k}=${s[k]}`);
  for (const o of s.other || []) parts.push(`${o.key}=${o.value}`);
  return parts.join(', ');
}

// renderAudit shows what the file does to the known AI and search
// crawlers: one row each, with the verdict on / and its deciding line.
function renderAudit(resp) {
  $('audit-summary').textContent = `The file ${resp.summary.text}. Paths sampled: ${resp.paths.join(' ')}.`;
  const body = $('audit').tBodies[0];
  body.replaceChildren();
  for (const c of resp.crawlers) {
    const root = c.verdicts[0];
    const tr = el('tr', root.allowed ? 'allowed' : 'disallowed');
    let name = `${c.token} (${c.operator})`;
    if (c.retired) name += ', retired';
    if (c.robots_txt === 'no') name += ', may ignore robots.txt';
    const why = el('td', 'why');
    if (root.line > 0) why.append(lineButton(root.line), ' ', el('code', '', root.reason));
    else why.append(reasons[root.reason] || root.reason);
    const verdict = el('td');
    verdict.append(el('span', 'verdict', root.allowed ? 'Allowed' : 'Disallowed'));
    tr.append(el('td', 'url', name), el('td', '', c.purpose), verdict, why, el('td', '', signalText(c.content_signal)));
    body.append(tr);
  }
}

function renderInfo(resp) {
  let text = `${lineCount.toLocaleString()} lines, ${resp.size.toLocaleString()} bytes.`;
  if (resp.truncated) {
    text += ' Over 500 KiB: only the first 512,000 bytes count, as for Google; the rest is ignored.';
  }
  $('file-info').textContent = text;
}

function showError(err) {
  if (err.name === 'AbortError') return;
  $('summary').textContent = 'The tester did not answer: ' + err.message;
}

// update asks the API about the current file, agents and URLs.
function update() {
  renderGutter();
  const text = robots.value;
  // Tokens separated by commas, or one User-Agent header, whatever its
  // commas, as robotstxt test -agent reads them.
  const agent = agentInput.value.trim();
  const agents = /[/;()]/.test(agent) ? [agent] : agent.split(',').map((a) => a.trim()).filter(Boolean);
  const urls = urlsInput.value.split('\n').map((u) => u.trim()).filter(Boolean);
  if (agents.length === 0) {
    $('summary').textContent = 'Give a user agent, such as Googlebot.';
  } else {
    post('/api/test', { robots: text, agents, urls })
      .then((resp) => renderResults(resp, resp.agents), showError);
  }
  if (text !== checked) {
    post('/api/check', { robots: text })
      .then((resp) => {
        checked = text;
        renderDiagnostics(resp);
      }, showError);
    post('/api/audit', { robots: text }).then(renderAudit, showError);
  }
}

let timer = 0;
function later() {
  clearTimeout(timer);
  timer = setTimeout(update, DEBOUNCE);
}

const source = document.querySelector('.source');
robots.addEventListener('input', () => {
  if (source && !source.dataset.edited) {
    source.dataset.edited = 'true';
    source.textContent = source.textContent.replace(/\)$/, ', edited)');
  }
  renderGutter();
  later();
});
robots.addEventListener('scroll', syncScroll);
agentInput.addEventListener('input', later);
urlsInput.addEventListener('input', later);

if (document.body.dataset.allowFetch === 'true') {
  const status = $('fetch-status');
  $('fetch-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    status.textContent = 'Loading…';
    try {
      const r = await post('/api/fetch', { url: $('fetch-url').value });
      if (r.outcome === 'success') {
        robots.value = r.robots;
        robots.scrollTop = 0;
        if (source) {
          source.dataset.edited = '';
          source.textContent = `(${r.url})`;
        }
        status.textContent = `Loaded ${r.url} (status ${r.status}, ${r.size.toLocaleString()} bytes` +
          (r.truncated ? ', cut at 500 KiB as Google does' : '') + ').';
        update();
      } else if (r.outcome === 'unavailable') {
        status.textContent = `${r.url} answered ${r.status}: there is no robots.txt, so Google allows everything. The editor is unchanged.`;
      } else {
        status.textContent = `${r.url} could not be fetched (${r.error || 'status ' + r.status}): Google disallows everything for now. The editor is unchanged.`;
      }
    } catch (err) {
      if (err.name !== 'AbortError') status.textContent = err.message;
    }
  });
}

update();
