import MarkdownIt, { type StateInline, type Token } from 'markdown-it'
import { wikilinkParts } from './notes'

// Answers, reasoning and notes are Markdown written by a model, which may
// have read anything, so they are parsed into a tree of plain nodes and
// never into HTML: React escapes every text it draws, raw HTML stays text
// (html: false), an image is a link the person may follow (nothing remote
// is fetched by showing a run), and a link keeps only http, https and
// mailto targets.

/** The elements Markdown may draw; anything else the parser makes is dropped, its text kept. */
export type MdTag = 'p' | 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' | 'ul' | 'ol' | 'li' | 'blockquote' | 'strong' | 'em' | 's' | 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td'

const tags: ReadonlySet<string> = new Set<MdTag>(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'strong', 'em', 's', 'table', 'thead', 'tbody', 'tr', 'th', 'td'])

export type MdNode =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'pre'; text: string; lang: string }
  | { kind: 'br' }
  | { kind: 'hr' }
  /** href is safe (safeHref); a link whose target is not becomes its text. */
  | { kind: 'link'; href: string; children: MdNode[] }
  /** An image is never loaded: its alt text, linked to its source when that is safe ("" when not). */
  | { kind: 'image'; alt: string; href: string }
  | { kind: 'el'; tag: MdTag; start?: number; children: MdNode[] }
  /** A note's [[wikilink]] (or ![[embed]]): the note and heading it names, and the text it shows. Only notes are parsed for them. */
  | { kind: 'wikilink'; target: string; text: string }
  /** Text past maxParsed, shown as written (escaped, never parsed). */
  | { kind: 'plain'; text: string }

// breaks: a model's single newlines are meant as line breaks.
const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true })
// A note of the vault is read with its wikilinks, which Obsidian draws as links.
const notes = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true })
notes.inline.ruler.before('link', 'wikilink', wikilink)

// wikilink reads [[Note#Heading|alias]] and ![[embed]] on one line; one in a
// code span never reaches it (the code span's rule takes the span first).
function wikilink(state: StateInline, silent: boolean): boolean {
  const src = state.src
  let pos = state.pos
  if (src.charCodeAt(pos) === 0x21 /* ! */) pos++
  if (!src.startsWith('[[', pos)) return false
  const end = src.indexOf(']]', pos + 2)
  if (end < 0) return false
  const inner = src.slice(pos + 2, end)
  if (inner.trim() === '' || inner.includes('\n') || inner.includes('[[')) return false
  if (!silent) state.push('wikilink', '', 0).meta = wikilinkParts(inner)
  state.pos = end + 2
  return true
}

const schemes = new Set(['http:', 'https:', 'mailto:'])

/** safeHref is href when it is an absolute http, https or mailto URL, else "". */
export function safeHref(href: string | null | undefined): string {
  if (!href) return ''
  try {
    const u = new URL(href)
    return schemes.has(u.protocol) ? u.href : ''
  } catch {
    return ''
  }
}

// Past this many characters the text is shown as written: Markdown this
// long is a dump, not prose, and parsing a megabyte takes a second.
export const maxParsed = 200_000

/** parseMarkdown turns Markdown source into nodes that hold no HTML; a note's (opts.wikilinks) with its [[wikilinks]]. */
export function parseMarkdown(src: string, opts: { wikilinks?: boolean } = {}): MdNode[] {
  const parser = opts.wikilinks ? notes : md
  if (src.length <= maxParsed) return build(parser.parse(src, {}))
  return [...build(parser.parse(src.slice(0, maxParsed), {})), { kind: 'plain', text: src.slice(maxParsed) }]
}

// build folds a token stream into nodes: an opening token starts a child
// list, its closing token ends it. Hidden paragraphs (tight lists), links
// with an unsafe target and tags outside the list add their children to the
// parent instead.
function build(tokens: Token[]): MdNode[] {
  const root: MdNode[] = []
  const stack: MdNode[][] = [root]
  for (const tok of tokens) {
    const out = stack[stack.length - 1]
    if (tok.nesting === 1) {
      const node = open(tok)
      if (node) {
        out.push(node)
        stack.push(node.children)
      } else stack.push(out)
      continue
    }
    if (tok.nesting === -1) {
      if (stack.length > 1) stack.pop()
      continue
    }
    switch (tok.type) {
      case 'inline':
        for (const n of build(tok.children ?? [])) out.push(n)
        break
      case 'text':
      case 'html_inline':
      case 'html_block':
        pushText(out, tok.content)
        break
      case 'softbreak':
      case 'hardbreak':
        out.push({ kind: 'br' })
        break
      case 'code_inline':
        out.push({ kind: 'code', text: tok.content })
        break
      case 'fence':
      case 'code_block':
        out.push({ kind: 'pre', text: tok.content.replace(/\n$/, ''), lang: tok.info.trim().split(/\s+/)[0] ?? '' })
        break
      case 'hr':
        out.push({ kind: 'hr' })
        break
      case 'wikilink': {
        const { target, text } = tok.meta as { target: string; text: string }
        out.push({ kind: 'wikilink', target, text })
        break
      }
      case 'image': {
        const alt = (tok.children ?? []).map((c) => c.content).join('') || tok.content
        out.push({ kind: 'image', alt, href: safeHref(String(tok.attrGet('src') ?? '')) })
        break
      }
      default:
        if (tok.content) pushText(out, tok.content)
    }
  }
  return root
}

function open(tok: Token): Extract<MdNode, { children: MdNode[] }> | null {
  if (tok.hidden) return null
  if (tok.type === 'link_open') {
    const href = safeHref(String(tok.attrGet('href') ?? ''))
    return href ? { kind: 'link', href, children: [] } : null
  }
  if (!tags.has(tok.tag)) return null
  const start = tok.tag === 'ol' ? Number(tok.attrGet('start') ?? 1) : undefined
  return { kind: 'el', tag: tok.tag as MdTag, ...(start !== undefined && start !== 1 ? { start } : {}), children: [] }
}

// pushText joins adjacent texts, so a long answer makes few nodes.
function pushText(out: MdNode[], text: string): void {
  if (!text) return
  const last = out[out.length - 1]
  if (last?.kind === 'text') last.text += text
  else out.push({ kind: 'text', text })
}

/** lineCount is how many lines text has. */
export function lineCount(text: string): number {
  let n = 1
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}

/**
 * preview is the head of text shown while it is collapsed: at most lines
 * lines and chars characters; the whole text when it fits.
 */
export function preview(text: string, lines: number, chars: number): string {
  let end = -1
  for (let i = 0; i < lines; i++) {
    end = text.indexOf('\n', end + 1)
    if (end < 0) return text.length > chars ? text.slice(0, chars) : text
  }
  return text.slice(0, Math.min(end, chars))
}
