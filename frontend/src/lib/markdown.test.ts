import { createElement, Fragment } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { mdElements } from '../ui/Markdown'
import { lineCount, maxParsed, parseMarkdown, preview, safeHref, type MdNode } from './markdown'

const labels = { image: (alt: string) => `[image ${alt}]` }
const html = (src: string) => renderToStaticMarkup(createElement(Fragment, null, ...mdElements(parseMarkdown(src), labels)))

// walk lists every node of a tree, depth first.
function walk(nodes: MdNode[]): MdNode[] {
  return nodes.flatMap((n) => ('children' in n ? [n, ...walk(n.children)] : [n]))
}

describe('parseMarkdown', () => {
  it('draws headings, lists, emphasis and code', () => {
    const out = html('## Summary\n\n- one **bold**\n- two `code`\n\n```go\nfmt.Println("<b>")\n```\n')
    expect(out).toBe('<h2>Summary</h2><ul><li>one <strong>bold</strong></li><li>two <code>code</code></li></ul><pre class="md-pre" data-lang="go"><code>fmt.Println(&quot;&lt;b&gt;&quot;)</code></pre>')
  })

  it('keeps raw HTML as text, never as markup', () => {
    const src = '<script>alert(1)</script>\n\nhi <b onmouseover="x()">there</b> <iframe src="http://evil.test/"></iframe>'
    const out = html(src)
    expect(out).not.toMatch(/<(script|b|iframe)[\s>]/)
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(out).toContain('&lt;b onmouseover=&quot;x()&quot;&gt;')
  })

  it('loads no image: the alt text links to the source instead', () => {
    const out = html('![a chart](http://198.51.100.7/track.png) and <img src=http://198.51.100.7/x.png onerror=alert(1)>')
    expect(out).not.toContain('<img')
    expect(out).toContain('<a class="md-image" href="http://198.51.100.7/track.png" target="_blank" rel="noopener noreferrer nofollow" title="http://198.51.100.7/track.png">[image a chart]</a>')
    // Raw <img> is text (its bare address a link, as any address is).
    expect(out).toContain('&lt;img src=<a href="http://198.51.100.7/x.png"')
    // An image whose source is no web address is its alt text alone.
    expect(html('![x](javascript:alert(1))')).not.toContain('href')
  })

  it('links only to http, https and mailto, each opened apart from the page', () => {
    const links = walk(parseMarkdown('[a](https://example.com/x) [b](javascript:alert(1)) [c](JaVaScRiPt:alert(1)) [d](data:text/html,x) [e](mailto:a@example.com) [f](file:///etc/passwd) [g](/api/runs) [h](vbscript:x)')).filter((n) => n.kind === 'link')
    expect(links.map((l) => (l.kind === 'link' ? l.href : ''))).toEqual(['https://example.com/x', 'mailto:a@example.com'])
    const out = html('[a](https://example.com/x) and [b](javascript:alert(1))')
    expect(out).toContain('<a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">a</a>')
    expect(out).not.toContain('javascript:alert(1)"')
    expect(safeHref('http://example.com')).toBe('http://example.com/')
    expect(safeHref(' javascript:alert(1)')).toBe('')
    expect(safeHref('https:x')).toBe('https://x/')
    expect(safeHref('relative/path')).toBe('')
  })

  it('keeps Chinese text and full-width punctuation as written', () => {
    const out = html('## 总结\n\n- 第一步：读取文件。\n- **完成**，共 3 个文件')
    expect(out).toBe('<h2>总结</h2><ul><li>第一步：读取文件。</li><li><strong>完成</strong>，共 3 个文件</li></ul>')
  })

  it('parses a megabyte of hostile input only up to its limit, with no markup in it', () => {
    const chunk = '## h <script>x</script>\n- [a](javascript:x) ![i](http://198.51.100.7/i.png) `c` **b** 中文\n\n'
    const src = chunk.repeat(Math.ceil(1_000_000 / chunk.length))
    const nodes = parseMarkdown(src)
    expect(src.length).toBeGreaterThanOrEqual(1_000_000)
    // Only the first maxParsed characters are parsed, so the work is bounded; the rest is shown as written.
    expect(nodes.at(-1)).toEqual({ kind: 'plain', text: src.slice(maxParsed) })
    const all = walk(nodes)
    expect(all.some((n) => n.kind === 'link')).toBe(false)
    expect(all.filter((n) => n.kind === 'image').every((n) => n.kind === 'image' && n.href === 'http://198.51.100.7/i.png')).toBe(true)
    // Deeply nested brackets and emphasis do not blow up either.
    expect(parseMarkdown('['.repeat(20_000) + '*'.repeat(20_000)).length).toBeGreaterThan(0)
  })

  it('breaks lines where the model did', () => {
    expect(html('one\ntwo')).toBe('<p>one<br/>two</p>')
  })
})

describe('collapsing', () => {
  it('counts lines and cuts the head at lines or characters', () => {
    expect(lineCount('a')).toBe(1)
    expect(lineCount('a\nb\n')).toBe(3)
    expect(preview('1\n2\n3\n4', 2, 100)).toBe('1\n2')
    expect(preview('1\n2', 5, 100)).toBe('1\n2')
    expect(preview('x'.repeat(50), 5, 10)).toBe('x'.repeat(10))
  })
})

describe('a note’s wikilinks', () => {
  const links = (src: string) => walk(parseMarkdown(src, { wikilinks: true })).filter((n) => n.kind === 'wikilink')
  it('reads [[Note]], [[Note#Heading|alias]], an embed and a table’s escaped pipe', () => {
    expect(links('See [[Plan]], [[Plan#Goals|the goals]] and ![[Diagram]].\n\n| a | b |\n| - | - |\n| [[Plan\\|plan]] | x |\n')).toEqual([
      { kind: 'wikilink', target: 'Plan', text: 'Plan' },
      { kind: 'wikilink', target: 'Plan#Goals', text: 'the goals' },
      { kind: 'wikilink', target: 'Diagram', text: 'Diagram' },
      { kind: 'wikilink', target: 'Plan', text: 'plan' },
    ])
  })
  it('leaves a link in code, an unclosed one and an answer’s as text', () => {
    expect(links('Code: `[[Plan]]`\n\n```\n[[Plan]]\n```\n\n[[open')).toEqual([])
    expect(walk(parseMarkdown('Renamed [[Plan]].')).some((n) => n.kind === 'wikilink')).toBe(false)
  })
  it('draws a link as a button only where it can be followed', () => {
    const nodes = parseMarkdown('[[Plan|the plan]]', { wikilinks: true })
    expect(renderToStaticMarkup(createElement(Fragment, null, ...mdElements(nodes, labels)))).toBe('<p><span class="md-wikilink">the plan</span></p>')
    const followed = renderToStaticMarkup(createElement(Fragment, null, ...mdElements(nodes, { ...labels, wikilink: () => {} })))
    expect(followed).toContain('data-target="Plan"')
    expect(followed).toContain('>the plan</button>')
  })
})
