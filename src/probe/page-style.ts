// The status page's look, inline under the page's CSP nonce: system fonts, light and dark by
// the system's choice, tables that scroll sideways on a 360 px phone instead of squeezing.
export const PAGE_STYLE =
  `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--ok:#1a7f37;--bad:#cf222e;` +
  `--warn:#9a6700;--accent:#0969da;--button:#0969da;--panel:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--ok:#3fb950;` +
  `--bad:#ff7b72;--warn:#d29922;--accent:#58a6ff;--button:#1158c7;--panel:#161b22}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:70rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.2rem 0 .6rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}
.overall{padding:.7rem 1rem;border-radius:.4rem;border:1px solid var(--line);background:var(--panel);font-weight:600}
.overall.ok{border-left:.4rem solid var(--ok)}.overall.bad{border-left:.4rem solid var(--bad)}
.facts{display:flex;flex-wrap:wrap;gap:.3rem 1.5rem;margin:.6rem 0;padding:0;list-style:none;color:var(--muted)}
.facts strong{color:var(--fg);font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;border:1px solid var(--line);border-radius:.4rem}
table{border-collapse:collapse;width:100%;font-size:.95rem}
caption{text-align:left;padding:.5rem .6rem;font-weight:600;caption-side:top}
th,td{padding:.45rem .6rem;border-top:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--panel);font-weight:600;white-space:nowrap}
.status-ok,td.ok,b.ok{color:var(--ok)}.status-bad,td.bad,b.bad{color:var(--bad)}.status-wait,` +
  `td.wait{color:var(--warn)}.status-ok,.status-bad,.status-wait,b{font-weight:600}td.none{color:var(--muted)}
.addr,code,.rec td:nth-child(3){font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:inherit;` +
  `white-space:nowrap}
.muted{color:var(--muted)}.nobr{white-space:nowrap}
.hist td:first-child{white-space:nowrap}
form{margin:.8rem 0}
button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid var(--button);background:var(--button);` +
  `color:#fff;cursor:pointer;min-height:44px}
button:focus-visible,a:focus-visible{outline:3px solid var(--warn);outline-offset:2px}
a{color:var(--accent)}
nav.pages{display:flex;gap:1rem;margin:.6rem 0}
.notice{padding:.5rem .8rem;border:1px solid var(--line);border-left:.4rem solid var(--accent);border-radius:.4rem;` +
  `margin:.6rem 0}
.problem{border-left-color:var(--bad)}
figure.timeline{margin:.4rem 0 1rem}figure.timeline svg{width:100%;max-width:48rem;height:auto;display:block}
figure.timeline text{font-size:12px;fill:var(--fg)}figure.timeline .tl-axis{font-size:11px;fill:var(--muted)}
.tl-none{fill:var(--panel);stroke:var(--line)}figure.timeline path{fill:none;stroke-width:14px}figure.timeline ` +
  `.tl-fail{stroke:var(--bad);stroke-width:4px}
.tl0{stroke:#0969da}.tl1{stroke:#8250df}.tl2{stroke:#1a7f37}.tl3{stroke:#bf8700}
@media (max-width:40rem){
main{padding:.6rem}
.scroll{overflow-x:visible;border:0}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.cards caption{padding:.3rem 0}
table.cards tr{display:block;border:1px solid var(--line);border-radius:.4rem;margin:0 0 .6rem}
table.cards th,table.cards td{display:block;border:0;padding:.2rem .6rem;background:none;white-space:normal;` +
  `overflow-wrap:anywhere}
table.cards .nobr{white-space:nowrap}
table.cards th[scope=row]{padding-top:.5rem}
table.cards .addr,table.cards code,.rec td:nth-child(3){white-space:normal;overflow-wrap:anywhere}
table.cards td::before{color:var(--muted);font-family:system-ui,sans-serif}
table.cards td[data-label]::before{content:attr(data-label) ": "}
.rec td:nth-child(2):before{content:"Type: "}.rec td:nth-child(3):before{content:"Address: "}.rec ` +
  `td:nth-child(4):before{content:"Since: "}.rec td:nth-child(5):before{content:"Sent via: "}.rec ` +
  `td:nth-child(6):before{content:"Status: "}
.src td:nth-child(2):before{content:"Family: "}.src td:nth-child(3):before{content:"Answer: "}.src ` +
  `td:nth-child(4):before{content:"Took: "}.src td:nth-child(5):before{content:"Asked at: "}
.hist td:nth-child(1):before{content:"When: "}.hist td:nth-child(3):before{content:"Type: "}.hist ` +
  `td:nth-child(4):before{content:"What: "}.hist td:nth-child(5):before{content:"Held for: "}
}
`;

/**
 * Reloads the page every REFRESH seconds while it is shown, so a phone left on it stays
 * current; a hidden tab waits. The page is whole without it.
 */
const REFRESH_SECONDS = 30;
export const REFRESH_SCRIPT =
  `(function(){var t=setTimeout(function ` +
  `r(){if(document.visibilityState==='visible'){location.reload();}else{t=setTimeout(r,${REFRESH_SECONDS * 1000});}}` +
  `,${REFRESH_SECONDS * 1000});})();`;
