/**
 * The style and the script of report.html, as text: the report carries them inline (one file that
 * opens offline), and its Content-Security-Policy allows exactly these by their hashes (html.ts).
 * The script is plain ES2017 for any browser, builds nodes with textContent only, and reads the
 * exchanges from a JSON block (never executed) the first time one is asked for.
 */

export const REPORT_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #8d96a0; --bg: #0d1117; --panel: #161b22; --line: #30363d;
  --pass: #3fb950; --fail: #f85149; --skip: #d29922; --accent: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1200px; margin: 0 auto; padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.sub { color: var(--muted); margin: 0; }
header.summary { border-top: 6px solid var(--line); }
header.summary.passed { border-top-color: var(--pass); }
header.summary.failed { border-top-color: var(--fail); }
.verdict { font-weight: 600; margin: 4px 0; }
.summary.passed .verdict { color: var(--pass); } .summary.failed .verdict { color: var(--fail); }
.incomplete { border: 2px solid var(--fail); border-radius: 6px; padding: 8px 14px; margin: 16px 0 0; }
.incomplete h2 { color: var(--fail); margin: 0 0 6px; }
.incomplete ul { margin: 0; padding-left: 18px; }
.tiles { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0 0; padding: 0; list-style: none; }
.tiles li { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.tiles b { display: block; font-size: 22px; }
.tiles .passed b { color: var(--pass); } .tiles .failed b { color: var(--fail); } .tiles .skipped b { color: var(--skip); } .tiles .flaky b { color: var(--skip); }
.filters { position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line); padding: 10px 0; display: flex; flex-wrap: wrap; gap: 14px; align-items: center; z-index: 1; }
.filters input[type=search] { flex: 1 1 280px; font: inherit; padding: 6px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); }
.filters label { white-space: nowrap; }
#shown { color: var(--muted); }
.collection h2 .title { color: var(--muted); font-weight: normal; }
.collection h2 .counts { color: var(--muted); font-weight: normal; font-size: 13px; margin-left: 8px; }
ul.tests { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 6px; }
ul.tests > li + li { border-top: 1px solid var(--line); }
details > summary { cursor: pointer; padding: 6px 12px; display: flex; gap: 10px; align-items: baseline; }
details > summary::-webkit-details-marker { display: none; }
details[open] > summary { background: var(--panel); }
.mark { font-weight: bold; width: 1em; }
.passed .mark { color: var(--pass); } .failed .mark { color: var(--fail); } .skipped .mark { color: var(--skip); } .passed.flaky .mark { color: var(--skip); }
.name { flex: 1; word-break: break-all; }
.meta { color: var(--muted); font-size: 12px; white-space: nowrap; }
.body { padding: 8px 14px 14px 34px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0 0 10px; }
dt { color: var(--muted); } dd { margin: 0; word-break: break-all; }
ol.failures { margin: 0 0 10px; padding-left: 18px; }
ol.failures li { margin-bottom: 8px; }
.message { color: var(--fail); font-weight: 600; }
.where { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; color: var(--muted); }
pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0 8px; overflow: auto; max-height: 480px; white-space: pre-wrap; word-break: break-all; }
.pair { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; }
.skip { color: var(--skip); }
ol.warnings .message { color: var(--skip); }
button { font: inherit; padding: 4px 12px; border-radius: 6px; border: 1px solid var(--line); background: var(--panel); color: var(--accent); cursor: pointer; }
.exchange h3 { font-size: 13px; margin: 10px 0 2px; }
.note { color: var(--muted); font-size: 12px; }
.problems { border: 1px solid var(--fail); border-radius: 6px; padding: 8px 14px; }
[hidden] { display: none !important; }
`;

export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var search = document.getElementById('filter');
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[name="status"]'));
  var tests = Array.prototype.slice.call(document.querySelectorAll('li.test'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.collection'));
  var shown = document.getElementById('shown');
  var exchanges = null;

  function apply() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var wanted = {};
    boxes.forEach(function (b) { wanted[b.value] = b.checked; });
    var count = 0;
    tests.forEach(function (li) {
      var text = li.getAttribute('data-search');
      var ok = wanted[li.getAttribute('data-status')] && words.every(function (w) { return text.indexOf(w) >= 0; });
      li.hidden = !ok;
      if (ok) count++;
    });
    sections.forEach(function (s) { s.hidden = !s.querySelector('li.test:not([hidden])'); });
    shown.textContent = 'showing ' + count + ' of ' + tests.length;
  }

  function element(tag, text, className) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (className) e.className = className;
    return e;
  }

  function message(box, title, first, m) {
    box.appendChild(element('h3', title));
    box.appendChild(element('pre', [first].concat(m.headers.map(function (h) { return h[0] + ': ' + h[1]; })).join('\\n')));
    box.appendChild(element('pre', m.body || '(empty body)'));
    if (m.bodyCut) box.appendChild(element('p', m.bodyCut + ' more characters of the body are not in the report', 'note'));
  }

  function showExchange(button) {
    if (!exchanges) {
      var data = document.getElementById('exchanges');
      exchanges = data ? JSON.parse(data.textContent) : {};
    }
    var x = exchanges[button.getAttribute('data-test')];
    var box = button.nextElementSibling;
    if (!box.hasChildNodes() && x) {
      message(box, 'Request', x.request.method + ' ' + x.request.url, x.request);
      if (x.reply) message(box, 'Reply', x.reply.status + ' ' + x.reply.statusText, x.reply);
      if (x.error) box.appendChild(element('p', x.error, 'message'));
    }
    box.hidden = !box.hidden;
    button.textContent = box.hidden ? 'Show exchange' : 'Hide exchange';
  }

  document.addEventListener('click', function (event) {
    var target = event.target;
    if (target && target.classList && target.classList.contains('show-exchange')) showExchange(target);
  });
  search.addEventListener('input', apply);
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  if (location.hash.indexOf('#q=') === 0) search.value = decodeURIComponent(location.hash.slice(3));
  apply();
})();
`;
