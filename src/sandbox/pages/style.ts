/**
 * The service pages' stylesheet: the workbench's quiet look, light or dark after the reader's
 * system setting. Served inline under a nonce (see html.ts), so nothing else has to be fetched.
 */
export const PAGE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa;
  --accent: #0b62c4; --accent-fg: #ffffff; --ph: #8a4b00; --ok: #1a7f37; --bad: #c0262d;
  --mono: ui-monospace, SFMono-Regular, "Cascadia Code", Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #1e1f22; --fg: #e6e6e6; --muted: #a0a4ab; --border: #3c3f45; --panel: #26282c;
    --accent: #6cb6ff; --accent-fg: #0d1117; --ph: #e8b56a; --ok: #57c46e; --bad: #ff7b72;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
main { max-width: 62rem; margin: 0 auto; padding: 8px 24px 32px; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
code, pre, textarea { font-family: var(--mono); font-size: 13px; }
h1 { font-size: 1.6rem; font-weight: 600; margin: 18px 0 4px; overflow-wrap: break-word; }
p code { overflow-wrap: anywhere; }
h1 .version { display: inline-block; font-size: 1rem; font-weight: 500; color: var(--muted); margin-left: 8px; }
h2 { font-size: 1.1rem; font-weight: 600; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--border); }
h3 { font-size: 0.95rem; font-weight: 600; margin: 18px 0 6px; }
p { margin: 6px 0; }
.lead { color: var(--muted); }
.muted { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.bar { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; padding: 10px 24px; border-bottom: 1px solid var(--border); background: var(--panel); }
.bar .logo { color: var(--accent); flex: none; }
.bar .brand { font-weight: 600; }
.trail { display: flex; gap: 8px; flex-wrap: wrap; color: var(--muted); }
.trail .sep { color: var(--muted); }
.trail::before { content: "|"; color: var(--border); margin-right: 2px; }
footer { max-width: 62rem; margin: 0 auto; padding: 16px 24px 24px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--border); }
.toc { display: flex; gap: 6px 16px; flex-wrap: wrap; margin: 10px 0 0; padding: 0; list-style: none; font-size: 14px; }
.badges { display: inline-flex; gap: 6px; flex-wrap: wrap; vertical-align: middle; }
.badge { font-size: 12px; line-height: 1.6; padding: 0 8px; border: 1px solid var(--border); border-radius: 10px; color: var(--muted); white-space: nowrap; }
.badge.http { border-color: var(--accent); color: var(--accent); }
.ops { list-style: none; margin: 0; padding: 0; }
.ops li { padding: 10px 0; border-bottom: 1px solid var(--border); }
.ops li:last-child { border-bottom: none; }
.ops .name { font-weight: 600; font-size: 1.05rem; margin-right: 8px; }
.ops p { margin: 2px 0 0; }
.services { columns: 2 18rem; margin: 0; padding-left: 20px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--border); }
th { font-weight: 600; color: var(--muted); font-size: 13px; }
td code { white-space: nowrap; }
h3 .ns { font-weight: 400; font-size: 13px; color: var(--muted); margin-left: 6px; }
.values { display: block; color: var(--muted); font-size: 13px; }
.req { font-size: 12px; color: var(--accent); white-space: nowrap; }
pre { margin: 6px 0 12px; padding: 12px 14px; background: var(--panel); border: 1px solid var(--border); border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.ph { color: var(--ph); font-style: italic; }
.sample-note { font-size: 13px; color: var(--muted); }
.panel { padding: 14px 16px; background: var(--panel); border: 1px solid var(--border); border-radius: 6px; }
form.test .row { display: grid; grid-template-columns: minmax(9rem, 14rem) minmax(0, 1fr); gap: 4px 14px; align-items: center; margin: 8px 0; }
form.test label { font-weight: 600; font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
form.test .hint { grid-column: 2; font-size: 12px; color: var(--muted); margin-top: -2px; }
input[type=text], textarea { width: 100%; padding: 6px 8px; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 4px; }
textarea { min-height: 22rem; resize: vertical; line-height: 1.4; white-space: pre; overflow-wrap: normal; overflow-x: auto; }
fieldset { border: none; margin: 8px 0; padding: 0; display: flex; gap: 18px; flex-wrap: wrap; align-items: center; }
legend { font-weight: 600; float: left; margin-right: 12px; padding: 0; }
form.test fieldset label { font: inherit; display: inline-flex; gap: 6px; align-items: center; }
.actions { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; margin-top: 12px; }
button { font: inherit; font-weight: 600; padding: 6px 18px; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; }
button:hover { filter: brightness(1.08); }
.notice { padding: 10px 14px; border-left: 3px solid var(--ph); background: var(--panel); border-radius: 0 6px 6px 0; }
#result { scroll-margin-top: 12px; }
.status { font-weight: 600; }
.status.ok { color: var(--ok); }
.status.bad { color: var(--bad); }
details > summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
@media (max-width: 640px) {
  main { padding: 8px 14px 24px; }
  form.test .row { grid-template-columns: 1fr; }
  form.test .hint { grid-column: 1; }
}
`;
