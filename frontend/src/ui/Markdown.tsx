import { memo, useMemo, useState, type ReactNode } from 'react'
import type { Translate } from '../i18n/i18n'
import { lineCount, parseMarkdown, preview, type MdNode } from '../lib/markdown'
import { useT } from './appContext'

/** Labels is what the drawn Markdown says in the person's language. */
export interface MdLabels {
  image: (alt: string) => string
  /** wikilink follows a note's [[wikilink]] to the note it names; without it the link is its text. */
  wikilink?: (target: string) => void
}

const rel = 'noopener noreferrer nofollow'

/** mdElements draws nodes as React elements; text is escaped by React, so nothing in them is markup. */
export function mdElements(nodes: MdNode[], labels: MdLabels, inLink = false): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return n.text
      case 'br':
        return <br key={i} />
      case 'hr':
        return <hr key={i} />
      case 'plain':
        return (
          <div key={i} className="md-plain">
            {n.text}
          </div>
        )
      case 'code':
        return <code key={i}>{n.text}</code>
      case 'pre':
        return (
          <pre key={i} className="md-pre" data-lang={n.lang || undefined}>
            <code>{n.text}</code>
          </pre>
        )
      case 'link':
        if (inLink) return <span key={i}>{mdElements(n.children, labels, true)}</span>
        return (
          <a key={i} href={n.href} target="_blank" rel={rel}>
            {mdElements(n.children, labels, true)}
          </a>
        )
      case 'wikilink':
        if (!labels.wikilink || inLink) return <span key={i} className="md-wikilink">{n.text}</span>
        return (
          <button key={i} type="button" className="link md-wikilink" data-testid="note-wikilink" data-target={n.target} title={n.target} onClick={() => labels.wikilink?.(n.target)}>
            {n.text}
          </button>
        )
      case 'image': {
        const text = labels.image(n.alt || n.href)
        if (!n.href || inLink) return <span key={i} className="md-image">{text}</span>
        return (
          <a key={i} className="md-image" href={n.href} target="_blank" rel={rel} title={n.href}>
            {text}
          </a>
        )
      }
      case 'el': {
        const Tag = n.tag
        return (
          <Tag key={i} {...(n.start !== undefined ? { start: n.start } : {})}>
            {mdElements(n.children, labels, inLink)}
          </Tag>
        )
      }
    }
  })
}

interface MarkdownProps {
  text: string
  /** Lines shown before "Show all"; 0 never collapses. */
  lines?: number
  className?: string
  testId?: string
}

// Past this many characters a text collapses too, however few its lines.
const collapseChars = 1200

/**
 * Markdown draws a model's Markdown, sanitised (lib/markdown.ts), collapsed
 * past a few lines with "Show all". While collapsed only the head is parsed,
 * so a long answer costs little until it is opened.
 */
export const Markdown = memo(function Markdown({ text, lines = 8, className = '', testId }: MarkdownProps) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const long = lines > 0 && (lineCount(text) > lines || text.length > collapseChars)
  const shown = long && !open ? preview(text, lines, collapseChars) : text
  const nodes = useMemo(() => parseMarkdown(shown), [shown])
  const labels = useMemo(() => mdLabels(t), [t])
  return (
    <div className={`md${long && !open ? ' md-collapsed' : ''}${className ? ` ${className}` : ''}`} data-testid={testId} data-collapsed={long ? String(!open) : undefined}>
      <div className="md-body">{mdElements(nodes, labels)}</div>
      {long && (
        <button type="button" className="link md-toggle" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="md-toggle">
          {open ? t('md.show_less') : t('md.show_all', { lines: lineCount(text) })}
        </button>
      )}
    </div>
  )
})

export function mdLabels(t: Translate): MdLabels {
  return { image: (alt) => t('md.image', { alt }) }
}
