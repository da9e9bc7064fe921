import { emptyMarks, REVIEW_TYPES } from './marks.js';
import type { ReviewSample } from './sample.js';

/** Where the page keeps a reviewer's progress in the browser: one key per sample (file:// pages share one origin in Chromium). */
export const progressKey = (sample: Pick<ReviewSample, 'fingerprint'>) => `ppmlm-review:${sample.fingerprint}`;

/** JSON that can sit inside a <script> element: no `</script>` or `<!--` can close it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const KEYS: [string, string][] = [
  ['j / k', 'next / previous passage'],
  ['Enter', 'mark this passage reviewed and go to the next'],
  ['r', 'toggle reviewed'],
  ['g', 'go to the next passage not reviewed'],
  ['Tab / Shift+Tab', 'focus the next / previous protected span'],
  ['x', 'toggle the focused span: identifier or false alarm'],
  ['l / h (→ / ←)', 'move the word cursor'],
  ['L / H (Shift+→ / Shift+←)', 'move the word cursor and keep the selection\'s other end'],
  ['1 – 6', `mark the selection (or text selected with the mouse) as a missed ${REVIEW_TYPES.map((t, i) => `${i + 1} ${t}`).join(', ')}`],
  ['Backspace', 'remove the missed mark under the word cursor'],
  ['e', 'export the marks (JSON: offsets and types, no text)'],
  ['?', 'show or hide this help'],
  ['Shift+X', 'forget the progress this browser keeps for this sample'],
];

/**
 * The review page: one self-contained HTML file (no network, no external script, style or font) showing
 * the sample's passages with their protected spans, driven from the keyboard. The reviewer marks missed
 * identifiers and false alarms and exports the marks as JSON for `ppmlm blacklist review --import`. It
 * holds passages of the corpus, so the CLI writes it with mode 0600; progress kept in the browser is
 * offsets and types only. Individuals and document ids are left out: the import redraws the sample.
 */
export function reviewPageHtml(sample: ReviewSample): string {
  const data = {
    key: progressKey(sample),
    types: REVIEW_TYPES,
    marks: emptyMarks(sample),
    items: sample.items.map((i) => ({ text: i.text, words: i.wordSpans, spans: i.spans.map((s) => ({ start: s.start, end: s.end, kind: s.kind, category: s.category, source: s.source })) })),
  };
  const help = KEYS.map(([k, what]) => `<tr><th>${k}</th><td>${what}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:">
<title>ppmlm blacklist review · ${sample.fingerprint.slice(0, 8)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2733;background:#fafafa}
header{padding:10px 18px;background:#1d2733;color:#fff}header b{font-weight:600}
.warning{margin:12px 18px;padding:8px 12px;border-left:4px solid #c0392b;background:#fdecea;font-size:13px}
main{display:flex;gap:18px;padding:0 18px 18px}
#left{flex:1;min-width:0}#help{width:330px;font-size:12.5px}
#status{margin:8px 0;font-size:13px;color:#445}
#passage{background:#fff;border:1px solid #ccd;border-radius:6px;padding:16px 18px;font:17px/1.9 Georgia,serif;white-space:pre-wrap;min-height:120px}
#passage.reviewed{border-color:#2e8b57;box-shadow:0 0 0 2px #2e8b5744}
.seg.direct{background:#ffd98a}.seg.indirect{background:#cfe3f6}
.seg.not{background:#e3e3e3;text-decoration:line-through;text-decoration-color:#888}
.seg.focus{outline:2px solid #1d2733;outline-offset:1px}
.seg.missed{background:#f6b3ab;border-bottom:3px solid #c0392b}
.seg.cursor{box-shadow:inset 0 -3px 0 #6a3fb5}.seg.selected{background:#dccff5}
.seg.missed.selected{background:#e9a6d9}
#spaninfo{margin:8px 0;font-size:13px;min-height:1.5em;color:#334}
#legend span{display:inline-block;margin-right:12px;font-size:12.5px}
#legend i{display:inline-block;width:14px;height:12px;margin-right:4px;vertical-align:-1px}
table{border-collapse:collapse}th{text-align:left;white-space:nowrap;padding:2px 8px 2px 0;vertical-align:top}td{padding:2px 0}
#help.hidden{display:none}
#counts{font-size:13px;margin-top:10px;color:#445}
</style></head>
<body>
<header><b>ppmlm blacklist review</b> · sample ${sample.fingerprint.slice(0, 8)} · ${sample.items.length} passages of about ${sample.passageWords} words, drawn with seed ${sample.seed} from ${sample.population.passages} passages of ${sample.population.individuals} individuals · blacklist ${sample.blacklist.slice(0, 8)}</header>
<div class="warning"><b>This page holds personal data</b>: passages of the corpus, as they were written. Keep it where the corpus is kept and do not send it; nothing on it loads from outside. Your progress is kept in this browser's local storage under the key <code>${progressKey(sample)}</code>: offsets and types only, never text. Shift+X forgets it; so does clearing the browser's site data for local files. Export the marks with <b>e</b> and import them with <code>ppmlm blacklist review --import</code>.</div>
<main><div id="left">
<div id="status"></div>
<div id="passage" tabindex="0"></div>
<div id="spaninfo"></div>
<div id="legend"><span><i style="background:#ffd98a"></i>protected identifier (a direct detection, or a term confirmed with x)</span><span><i style="background:#cfe3f6"></i>indirect (rare) term, not counted unless confirmed</span><span><i style="background:#e3e3e3"></i>false alarm</span><span><i style="background:#f6b3ab"></i>marked missed</span><span><i style="background:#dccff5"></i>selection</span></div>
<div id="counts"></div>
</div>
<aside id="help"><b>Keys</b> (press ? to hide)<table>${help}</table>
<p>For each passage: mark every identifier that is not wholly highlighted (select it, press its number), press x on each highlighted span that is no identifier (an indirect term that is one: x as well), then Enter.</p></aside>
</main>
<script type="application/json" id="data">${scriptJson(data)}</script>
<script>
(() => {
  const data = JSON.parse(document.getElementById('data').textContent);
  const marks = data.marks;
  const items = data.items;
  let at = 0, focus = -1, cursor = 0, anchor = 0;
  // Progress: offsets, types and judgements only, under this sample's key.
  try {
    const saved = JSON.parse(localStorage.getItem(data.key) || 'null');
    if (saved && Array.isArray(saved.items) && saved.items.length === marks.items.length) {
      saved.items.forEach((s, i) => {
        const m = marks.items[i];
        if (typeof s.reviewed === 'boolean') m.reviewed = s.reviewed;
        if (Array.isArray(s.missed)) m.missed = s.missed.filter((x) => Number.isInteger(x.start) && Number.isInteger(x.end) && data.types.includes(x.type));
        if (Array.isArray(s.spans) && s.spans.length === m.spans.length) m.spans = s.spans;
      });
      if (Number.isInteger(saved.at)) at = Math.min(Math.max(saved.at, 0), items.length - 1);
    }
  } catch (e) { /* unreadable progress: start afresh */ }
  const save = () => {
    try { localStorage.setItem(data.key, JSON.stringify({ at, items: marks.items.map((m) => ({ reviewed: m.reviewed, missed: m.missed, spans: m.spans })) })); } catch (e) { /* storage full or off: the export still works */ }
  };
  const selection = () => {
    const words = items[at].words;
    if (words.length === 0) return null;
    const a = Math.min(anchor, cursor), b = Math.max(anchor, cursor);
    return { start: words[a][0], end: words[b][1] };
  };
  /** The mouse selection inside the passage, as offsets, when there is one. */
  const mouseSelection = () => {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || sel.rangeCount === 0) return null;
    const r = sel.getRangeAt(0);
    const offset = (node, off) => {
      const el = node.nodeType === 3 ? node.parentElement : node;
      if (!el || !el.dataset || el.dataset.start === undefined) return null;
      return Number(el.dataset.start) + (node.nodeType === 3 ? off : 0);
    };
    const s = offset(r.startContainer, r.startOffset), e = offset(r.endContainer, r.endOffset);
    return s === null || e === null || e <= s ? null : { start: s, end: e };
  };
  const render = () => {
    const item = items[at], m = marks.items[at], text = item.text;
    const sel = selection();
    const words = item.words;
    const cur = words[cursor];
    const cuts = new Set([0, text.length]);
    for (const s of item.spans) { cuts.add(s.start); cuts.add(s.end); }
    for (const x of m.missed) { cuts.add(x.start); cuts.add(x.end); }
    if (sel) { cuts.add(sel.start); cuts.add(sel.end); }
    if (cur) { cuts.add(cur[0]); cuts.add(cur[1]); }
    const points = [...cuts].filter((c) => c >= 0 && c <= text.length).sort((a, b) => a - b);
    const box = document.getElementById('passage');
    box.textContent = '';
    for (let i = 0; i + 1 < points.length; i++) {
      const a = points[i], b = points[i + 1];
      const el = document.createElement('span');
      el.textContent = text.slice(a, b);
      el.dataset.start = String(a);
      const cls = ['seg'];
      const over = item.spans.map((s, j) => [s, j]).filter(([s]) => s.start < b && s.end > a);
      if (over.length) {
        // Amber: counted as an identifier; grey, struck: a direct detection judged a false alarm; blue: an indirect term not confirmed.
        cls.push(over.some(([, j]) => m.spans[j] === 'identifier') ? 'direct' : over.some(([s]) => s.kind === 'direct') ? 'not' : 'indirect');
        if (over.some(([, j]) => j === focus)) cls.push('focus');
        el.dataset.span = String(over[0][1]);
        el.title = over.map(([s, j]) => s.kind + ' ' + s.category + ' (' + s.source + ')' + (m.spans[j] === 'not' ? ': judged not an identifier' : '')).join('; ');
      }
      const miss = m.missed.find((x) => x.start < b && x.end > a);
      if (miss) { cls.push('missed'); el.title = 'missed ' + miss.type + (el.title ? '; ' + el.title : ''); }
      if (sel && sel.start < b && sel.end > a) cls.push('selected');
      if (cur && cur[0] < b && cur[1] > a) cls.push('cursor');
      el.className = cls.join(' ');
      box.appendChild(el);
    }
    box.className = m.reviewed ? 'reviewed' : '';
    const reviewed = marks.items.filter((x) => x.reviewed).length;
    document.getElementById('status').textContent = 'passage ' + (at + 1) + ' of ' + items.length + (m.reviewed ? ' · reviewed' : ' · not reviewed yet') + ' · ' + reviewed + ' reviewed in all';
    const f = item.spans[focus];
    document.getElementById('spaninfo').textContent = f ? 'span ' + (focus + 1) + ' of ' + item.spans.length + ': ' + f.kind + ' ' + f.category + ' from ' + f.source + ' — ' + (m.spans[focus] === 'identifier' ? 'an identifier' : 'not an identifier') + ' (x toggles)' : item.spans.length + ' protected spans (Tab to focus one)';
    const missed = marks.items.reduce((s, x) => s + (x.reviewed ? x.missed.length : 0), 0);
    const alarms = marks.items.reduce((s, x, i) => s + (x.reviewed ? x.spans.filter((v, j) => v === 'not' && items[i].spans[j].kind === 'direct').length : 0), 0);
    document.getElementById('counts').textContent = 'in reviewed passages: ' + missed + ' missed identifiers marked, ' + alarms + ' direct detections judged false alarms';
  };
  const go = (i) => { at = Math.min(Math.max(i, 0), items.length - 1); focus = -1; cursor = 0; anchor = 0; save(); render(); };
  const exportMarks = () => {
    const blob = new Blob([JSON.stringify(marks, null, 1)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'review-marks-' + marks.sample.slice(0, 8) + '.json';
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  };
  document.getElementById('passage').addEventListener('click', (ev) => {
    const span = ev.target && ev.target.dataset ? ev.target.dataset.span : undefined;
    if (span !== undefined && window.getSelection().isCollapsed) { focus = Number(span); render(); }
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const item = items[at], m = marks.items[at], words = item.words;
    const k = ev.key;
    let handled = true;
    if (k === 'j') go(at + 1);
    else if (k === 'k') go(at - 1);
    else if (k === 'Enter') { m.reviewed = true; go(at + 1); }
    else if (k === 'r') { m.reviewed = !m.reviewed; save(); render(); }
    else if (k === 'g') { const next = marks.items.findIndex((x, i) => i > at && !x.reviewed); const first = marks.items.findIndex((x) => !x.reviewed); go(next >= 0 ? next : first >= 0 ? first : at); }
    else if (k === 'Tab') { if (item.spans.length) { focus = ev.shiftKey ? (focus <= 0 ? item.spans.length - 1 : focus - 1) : (focus + 1) % item.spans.length; } render(); }
    else if (k === 'x') { if (focus >= 0) { m.spans[focus] = m.spans[focus] === 'identifier' ? 'not' : 'identifier'; save(); render(); } }
    else if (k === 'X') { if (confirm('Forget the progress this browser keeps for this sample?')) { localStorage.removeItem(data.key); location.reload(); } }
    else if (k === 'l' || (k === 'ArrowRight' && !ev.shiftKey)) { cursor = Math.min(cursor + 1, Math.max(words.length - 1, 0)); anchor = cursor; render(); }
    else if (k === 'h' || (k === 'ArrowLeft' && !ev.shiftKey)) { cursor = Math.max(cursor - 1, 0); anchor = cursor; render(); }
    else if (k === 'L' || (k === 'ArrowRight' && ev.shiftKey)) { cursor = Math.min(cursor + 1, Math.max(words.length - 1, 0)); render(); }
    else if (k === 'H' || (k === 'ArrowLeft' && ev.shiftKey)) { cursor = Math.max(cursor - 1, 0); render(); }
    else if (/^[1-6]$/.test(k)) {
      const s = mouseSelection() || selection();
      if (s) {
        m.missed = m.missed.filter((x) => x.end <= s.start || x.start >= s.end);
        m.missed.push({ start: s.start, end: s.end, type: data.types[Number(k) - 1] });
        m.missed.sort((a, b) => a.start - b.start);
        window.getSelection().removeAllRanges();
        anchor = cursor;
        save(); render();
      }
    }
    else if (k === 'Backspace' || k === 'Delete') { const w = words[cursor]; if (w) { m.missed = m.missed.filter((x) => x.end <= w[0] || x.start >= w[1]); save(); render(); } }
    else if (k === 'e') exportMarks();
    else if (k === '?') document.getElementById('help').classList.toggle('hidden');
    else handled = false;
    if (handled) ev.preventDefault();
  });
  render();
})();
</script>
</body></html>
`;
}
