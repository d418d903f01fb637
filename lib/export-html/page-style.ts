/**
 * The inline stylesheet of the HTML export: system fonts, light and dark themes through
 * `prefers-color-scheme` (colours in theme.ts, contrast-checked), two panes that scroll on
 * their own, stacked on narrow screens. Pure data; contains no `url(` and no `</style`.
 *
 * Markers never rely on colour alone (design/ui.md): the active path has a "•" mark (CSS, so it
 * stays out of the row text) and a hidden ", on the active path" for screen readers; the
 * current leaf and "first kept" carry words, compaction and branch rows carry their own text.
 */
import { DARK, LIGHT, paletteVars } from "@/lib/export-html/theme";

export const PAGE_STYLE = `
:root{color-scheme:light dark;${paletteVars(LIGHT)}}
@media (prefers-color-scheme:dark){:root{${paletteVars(DARK)}}}
*{box-sizing:border-box}
[hidden]{display:none!important}
html,body{margin:0;height:100%}
body{display:flex;flex-direction:column;background:var(--bg);color:var(--text);
 font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
pre,code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
.top{padding:8px 14px;border-bottom:1px solid var(--border);background:var(--surface)}
.top h1{margin:0;font-size:17px;overflow-wrap:anywhere}
.top p{margin:2px 0 0;color:var(--muted);font-size:12.5px}
.panes{flex:1;min-height:0;display:grid;grid-template-columns:minmax(280px,42%) 1fr;grid-template-rows:minmax(0,1fr)}
.tree,.path{contain:strict}
.tree{display:flex;flex-direction:column;min-height:0;border-right:1px solid var(--border)}
.controls{display:flex;gap:8px;align-items:center;padding:8px;border-bottom:1px solid var(--border);background:var(--surface)}
.controls label{color:var(--muted)}
select,input{font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--border);border-radius:4px;padding:3px 6px}
input[type=search]{flex:1;min-width:0}
.legend{margin:0;padding:3px 10px;color:var(--muted);font-size:12px;border-bottom:1px solid var(--border)}
#rows{flex:1;min-height:0;overflow:auto;margin:0;padding:4px 0;list-style:none;outline:none}
#rows:focus-visible{box-shadow:inset 0 0 0 2px var(--accent)}
.row{display:flex;align-items:baseline;padding:1px 10px 1px calc(10px + var(--d,0) * 16px);white-space:nowrap;
 cursor:pointer;color:var(--muted)}
.row .t{flex:0 1 auto;min-width:0;overflow:hidden;text-overflow:ellipsis}
.row .tag{flex:none}
.row .m{flex:none;width:1.1em;color:var(--accent)}
.row.on .m::before{content:"•"}
.row.on{color:var(--text)}
.row.k-compaction{color:var(--amber);background:var(--amberBg)}
.row.k-branch{color:var(--violet);background:var(--violetBg)}
.row[aria-selected=true]{font-weight:700;background:var(--selected);color:var(--text)}
.tag{display:inline-block;margin-left:6px;padding:0 5px;border:1px solid currentColor;border-radius:8px;font-size:11px;font-weight:600}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.empty{margin:0;padding:12px;color:var(--muted)}
.footer{margin:0;padding:4px 10px;border-top:1px solid var(--border);background:var(--surface);color:var(--muted)}
.path{min-height:0;overflow:auto;padding:10px 16px 40px}
.path h2{margin:0 0 8px;font-size:15px}
.path>p{color:var(--muted)}
#path{list-style:none;margin:0;padding:0}
.item{margin:0 0 8px;padding:6px 10px;border:1px solid var(--border);border-left-width:4px;border-radius:4px}
.item.k-user{border-left-color:var(--accent)}
.item.k-compaction{border-left-color:var(--amber);background:var(--amberBg)}
.item.k-branch{border-left-color:var(--violet);background:var(--violetBg)}
.item.k-setting,.item.k-other,.item.k-tool{color:var(--muted)}
.item.out{border-style:dashed}
.item.sel{box-shadow:0 0 0 2px var(--accent)}
.who{font-weight:600;font-size:12.5px}
.who .time{font-weight:400;color:var(--muted);margin-left:6px}
.k-compaction .who,.k-compaction summary{color:var(--amber)}
.k-branch .who,.k-branch summary{color:var(--violet)}
.item pre{margin:4px 0 0;white-space:pre-wrap;overflow-wrap:anywhere;color:var(--text)}
details{margin:4px 0 0}
summary{cursor:pointer;color:var(--muted)}
.more button{font:inherit;color:var(--accent);background:none;border:1px solid var(--border);border-radius:4px;padding:3px 8px;cursor:pointer;margin-bottom:8px}
details>div{padding:2px 0 0 14px}
.item img{max-width:100%;max-height:320px;display:block;margin-top:4px}
@media (max-width:760px){.panes{grid-template-columns:1fr;grid-template-rows:minmax(0,45%) minmax(0,1fr)}.tree{border-right:0;border-bottom:1px solid var(--border)}}
`;
