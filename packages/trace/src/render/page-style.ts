/** The page's whole stylesheet (inline: the file loads nothing). @internal */
export const PAGE_STYLE = `
:root{--bg:#f7f8fa;--card:#fff;--ink:#1d2330;--dim:#667085;--line:#e3e6ec;--model:#3b6fd8;--ok:#1f9d74;--error:#d9822b;--failed:#d64545;--recovery:#8b5cf6;--deferred:#8a94a6;--approved:#0f9bb4;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header.run{background:var(--card);border-bottom:1px solid var(--line);padding:18px 28px 14px}
h1{font-size:19px;margin:0 0 4px}
h2{font-size:15px;margin:0;display:flex;gap:10px;align-items:baseline}
code,pre{font-family:var(--mono);font-size:12.5px}
.dim{color:var(--dim);font-weight:400}
.meta{color:var(--dim)}
.outcome{font-weight:600;padding:1px 8px;border-radius:10px;background:#e8f5ef;color:var(--ok)}
.outcome.failed{background:#fdeaea;color:var(--failed)}
.outcome.deferred,.outcome.interrupted,.outcome.stopped{background:#eef0f4;color:#4b5565}
.stats{list-style:none;display:flex;flex-wrap:wrap;gap:8px 18px;padding:0;margin:10px 0 6px}
.stats b{font-size:16px}
.stats .hot b{color:var(--failed)}
.controls{display:flex;gap:8px;align-items:center;margin-top:8px}
button{font:inherit;border:1px solid var(--line);background:var(--card);border-radius:6px;padding:3px 10px;cursor:pointer}
button:hover{border-color:var(--model)}
.timing-note{margin:6px 0 0;color:var(--dim);font-size:12.5px}
main{padding:18px 28px 40px;max-width:1280px}
section.run-section{border-left:4px solid var(--model);padding:2px 0 2px 16px;margin:0 0 30px}
h2.run-heading{font-size:16px;margin:0 0 12px;flex-wrap:wrap}
.parts{font-family:var(--mono);font-size:12.5px}
section.turn{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:0 0 16px}
.timeline{margin:12px 0 10px;border-left:1px solid var(--line)}
.row{display:flex;align-items:center;min-height:26px}
.row-label{width:64px;flex:none;color:var(--dim);font-size:12px;text-align:right;padding-right:10px;margin-left:-1px;background:var(--card)}
.track{position:relative;flex:1;height:22px;background:repeating-linear-gradient(90deg,transparent 0 calc(10% - 1px),#f0f2f5 calc(10% - 1px) 10%)}
.bar{position:absolute;top:2px;height:18px;min-width:6px;border-radius:4px;color:#fff;font-size:11.5px;line-height:18px;padding:0 6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;text-decoration:none;background:var(--ok)}
.bar:hover{filter:brightness(1.1);outline:2px solid #0002}
.bar.model{background:var(--model)}
.bar.cache-break{box-shadow:inset 4px 0 0 var(--error)}
.bar.status-error{background:var(--error)}
.bar.status-failed,.bar.status-running{background:var(--failed)}
.bar.recovered{background:var(--recovery)}
.bar.status-deferred{background:repeating-linear-gradient(45deg,var(--deferred) 0 6px,#a3acbb 6px 12px)}
.bar.nested{top:5px;height:13px;line-height:13px;font-size:10px;opacity:.9}
.calls{display:flex;flex-direction:column;gap:6px}
details{border:1px solid var(--line);border-radius:8px;background:#fcfcfd}
details[open]{background:var(--card)}
details.flash{box-shadow:0 0 0 3px #3b6fd855}
summary{cursor:pointer;padding:6px 10px;display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;list-style-position:inside}
summary .name{font-weight:600;font-family:var(--mono)}
.dot{width:9px;height:9px;border-radius:50%;background:var(--ok);flex:none}
.dot.model{background:var(--model)}
.dot.status-error{background:var(--error)}
.dot.status-failed,.dot.status-running{background:var(--failed)}
.dot.status-deferred{background:var(--deferred)}
.dot.recovered{background:var(--recovery)}
.body{padding:4px 14px 12px 28px}
.body h4{margin:10px 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--dim)}
pre{margin:0;padding:8px 10px;background:#f3f5f8;border-radius:6px;white-space:pre-wrap;word-break:break-word;max-height:360px;overflow:auto}
pre.error{background:#fff4ec}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0}
dt{color:var(--dim)}
dd{margin:0}
.badge{font-size:11.5px;font-weight:600;padding:1px 8px;border-radius:10px;background:#eef0f4;color:#4b5565}
.badge.recovery{background:#f1ebff;color:var(--recovery)}
.badge.deferred{background:#eceff3;color:#4b5565;border:1px dashed var(--deferred)}
.badge.approved{background:#e3f6f9;color:var(--approved)}
.badge.denied,.badge.failed,.badge.running{background:#fdeaea;color:var(--failed)}
.badge.error{background:#fff1e5;color:var(--error)}
.badge.retry{background:#fff1e5;color:var(--error)}
.badge.cache-break{background:#fff1e5;color:var(--error)}
.children{margin-top:8px;display:flex;flex-direction:column;gap:6px}
ul.notes{list-style:none;margin:6px 0 10px;padding:0;display:flex;flex-direction:column;gap:4px}
ul.notes li{padding:4px 10px;border-radius:6px;background:#eef3fd;border-left:3px solid var(--model)}
ul.notes li.warn{background:#fff6ec;border-color:var(--error)}
ul.notes li.error{background:#fdeeee;border-color:var(--failed)}
.only-problems details[data-problem="false"]{display:none}
footer{color:var(--dim);font-size:12px;padding:0 28px 24px}
`;
