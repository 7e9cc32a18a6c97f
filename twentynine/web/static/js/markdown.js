// Just enough Markdown for our rules page: headings, paragraphs, lists, tables, code and
// emphasis. Everything is escaped first; links to "#section" scroll within the page (the
// address bar belongs to the router).

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/"/g, '&quot;');

export const slug = (s) => s.toLowerCase().replace(/<[^>]+>/g, '').replace(/[`*]/g, '')
  .replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-');

function inline(text) {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(#([\w-]+)\)/g, '<a href="#/rules" data-anchor="$2">$1</a>')
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g,
      '<a href="$2" rel="noopener noreferrer" target="_blank">$1</a>');
}

function table(rows) {
  const cells = (row) => row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const [head, , ...body] = rows;
  return `<div class="scroll-x"><table><thead><tr>${cells(head).map((c) => `<th>${inline(c)}</th>`)
    .join('')}</tr></thead><tbody>${body.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c)}</td>`)
    .join('')}</tr>`).join('')}</tbody></table></div>`;
}

function list(items, ordered) {
  const tag = ordered ? 'ol' : 'ul';
  return `<${tag}>${items.map((i) => `<li>${inline(i)}</li>`).join('')}</${tag}>`;
}

/** Markdown text → HTML string. */
export function markdown(text) {
  const out = [];
  const lines = text.replace(/\r/g, '').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    if (line.startsWith('```')) {
      const code = [];
      for (i += 1; i < lines.length && !lines[i].startsWith('```'); i += 1) code.push(lines[i]);
      out.push(`<pre><code>${escape(code.join('\n'))}</code></pre>`);
      i += 1;
      continue;
    }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) {
      const level = Math.min(heading[1].length + 1, 5);
      out.push(`<h${level} id="rules-${slug(heading[2])}">${inline(heading[2])}</h${level}>`);
      i += 1;
      continue;
    }
    if (line.startsWith('|')) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith('|'); i += 1) rows.push(lines[i]);
      out.push(table(rows));
      continue;
    }
    const bullet = /^\s*[-*]\s+/;
    const number = /^\s*\d+\.\s+/;
    if (bullet.test(line) || number.test(line)) {
      const ordered = number.test(line);
      const marker = ordered ? number : bullet;
      const items = [];
      for (; i < lines.length && lines[i].trim(); i += 1) {
        if (marker.test(lines[i])) items.push(lines[i].replace(marker, ''));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
      }
      out.push(list(items, ordered));
      continue;
    }
    const para = [];
    for (; i < lines.length && lines[i].trim() && !/^(#|\||```)/.test(lines[i])
      && !bullet.test(lines[i]) && !number.test(lines[i]); i += 1) para.push(lines[i].trim());
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return out.join('\n');
}

/** Make in-page links scroll to their section instead of changing the route. */
export function wireAnchors(container) {
  container.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-anchor]');
    if (!link) return;
    event.preventDefault();
    const target = container.querySelector(`#rules-${CSS.escape(link.dataset.anchor)}`);
    if (target) {
      target.scrollIntoView({ behavior: 'smooth' });
      target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    }
  });
}
