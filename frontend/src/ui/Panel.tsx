import { useState, type ReactNode } from 'react'
import { panelOpen, setPanelOpen, type PanelStorage } from '../lib/panels'
import { useT } from './context'

function storage(): PanelStorage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

interface PanelProps {
  /** Names the panel in localStorage, where its open state is remembered. */
  id: string
  title: ReactNode
  /** The title as text, for the toggle's label. */
  name: string
  /** A line shown beside the title, open or closed (a count, a status). */
  summary?: ReactNode
  /** Buttons at the header's end (copy), shown open or closed. */
  actions?: ReactNode
  /** Shown open or closed, below the header: what must not be hidden (a question waiting). */
  always?: ReactNode
  className?: string
  testId?: string
  attrs?: Record<string, string | undefined>
  children: ReactNode
}

/**
 * Panel is one of the run page's panels beside or above the timeline: a
 * header with a toggle, and a body the person may collapse; each panel
 * remembers its state (lib/panels.ts).
 */
export function Panel({ id, title, name, summary, actions, always, className = '', testId, attrs, children }: PanelProps) {
  const t = useT()
  const [open, setOpen] = useState(() => panelOpen(storage(), id))
  const toggle = () => {
    setPanelOpen(storage(), id, !open)
    setOpen(!open)
  }
  return (
    <section className={`run-panel ${className}`} data-panel={id} data-open={open} data-testid={testId} {...attrs}>
      <h3 className="panel-head">
        <button type="button" className="panel-toggle" aria-expanded={open} onClick={toggle} title={t(open ? 'panel.collapse' : 'panel.expand', { name })} data-testid={`panel-toggle-${id}`}>
          <span className="chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>{' '}
          <span className="panel-title">{title}</span>
        </button>
        {summary && <span className="panel-summary muted">{summary}</span>}
        {actions && <span className="panel-actions">{actions}</span>}
      </h3>
      {always}
      {open && <div className="panel-body">{children}</div>}
    </section>
  )
}
