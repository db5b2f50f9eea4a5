// robots.txt tester, "Beyond robots.txt": sends the file, the agent and the
// pasted page (headers, HTML, tdmrep.json) to /api/signals as the user
// types, and shows the answer for each use.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const fields = ['robots', 'agent', 'sig-url', 'sig-headers', 'sig-html', 'sig-tdmrep'].map($);
  const body = $('sig-results').querySelector('tbody');
  const notes = $('sig-notes');
  const uses = ['fetch', 'index', 'snippet', 'ai-input', 'ai-train'];
  let timer = 0;
  let ctl = null;

  function cell(tag, text, className) {
    const e = document.createElement(tag);
    e.textContent = text;
    if (className) e.className = className;
    return e;
  }

  async function update() {
    if (ctl) ctl.abort();
    ctl = new AbortController();
    const req = {
      robots: $('robots').value,
      agent: $('agent').value.split(',')[0].trim(),
      url: $('sig-url').value.trim(),
      headers: $('sig-headers').value,
      html: $('sig-html').value,
      tdmrep: $('sig-tdmrep').value,
    };
    let d;
    try {
      const resp = await fetch('/api/signals', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(req),
        signal: ctl.signal,
      });
      d = await resp.json();
      if (!resp.ok) throw new Error(d.error || resp.statusText);
    } catch (err) {
      if (err.name === 'AbortError') return;
      notes.replaceChildren(cell('li', 'error: ' + err.message, 'error'));
      return;
    }
    body.replaceChildren(...uses.map((u) => {
      const v = d.uses[u];
      const tr = document.createElement('tr');
      tr.append(cell('th', u), cell('td', v.answer, 'answer-' + v.answer),
        cell('td', v.by.map((b) => b.signal + ': ' + b.detail).join('; ') || '–'));
      tr.firstChild.scope = 'row';
      return tr;
    }));
    notes.replaceChildren(
      ...(d.unseen || []).map((s) => cell('li', 'not seen: ' + s, 'warning')),
      ...(d.problems || []).map((s) => cell('li', s, 'warning')));
  }

  for (const f of fields) {
    if (!f) continue;
    f.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(update, 250);
    });
  }
  update();
})();
