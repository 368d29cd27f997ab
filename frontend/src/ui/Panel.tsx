import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { draggedHeight, openPanel, panelHeight, panelOpen, setOpenPanel, setPanelHeight, setPanelOpen, type PanelStorage } from '../lib/panels'
import { useT } from './appContext'

function storage(): PanelStorage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** The width from which the panels stand beside the timeline (run.css says the same). */
export const besideQuery = '(min-width: 1600px)'

/** PanelGroup is how the run page's panels share their place: beside the timeline, or one at a time over it. */
export interface PanelGroup {
  /** The panels stand beside the timeline, each open or closed on its own. */
  beside: boolean
  /** Above the timeline: the id of the one panel open over it, "" when none is. */
  open: string
  setOpen(id: string): void
}

export const PanelGroupContext = createContext<PanelGroup | null>(null)

/** usePanelGroup follows the window's width and the panel open over the timeline, for the run page to provide. */
export function usePanelGroup(): PanelGroup {
  const [beside, setBeside] = useState(() => window.matchMedia?.(besideQuery).matches ?? false)
  const [open, setOpenState] = useState(() => openPanel(storage()))
  useEffect(() => {
    const mq = window.matchMedia?.(besideQuery)
    if (!mq) return
    const on = () => setBeside(mq.matches)
    mq.addEventListener('change', on)
    return () => mq.removeEventListener('change', on)
  }, [])
  const setOpen = useCallback((id: string) => {
    setOpenPanel(storage(), id)
    setOpenState(id)
  }, [])
  return useMemo(() => ({ beside, open, setOpen }), [beside, open, setOpen])
}

interface PanelProps {
  /** Names the panel in localStorage, where its open state and height are remembered. */
  id: string
  title: ReactNode
  /** The title as text, for the toggle's label. */
  name: string
  /** A line shown beside the title, open or closed (a count, a status, the answer's first line). */
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

const keyStep = 24

/**
 * Panel is one of the run page's panels beside or above the timeline: a
 * header with a toggle, and a body the person opens and closes. Above the
 * timeline only the headers stand in a strip, and the body of the one open
 * drops over the timeline at the height its content needs; beside it, each
 * body is in the column. Either way the body's lower edge drags to another
 * height (double-click: back to its content's), which it keeps (lib/panels.ts).
 */
export function Panel({ id, title, name, summary, actions, always, className = '', testId, attrs, children }: PanelProps) {
  const t = useT()
  const group = useContext(PanelGroupContext)
  const beside = group?.beside ?? true
  const [ownOpen, setOwnOpen] = useState(() => panelOpen(storage(), id))
  const open = beside ? ownOpen : group?.open === id
  const [height, setHeight] = useState(() => panelHeight(storage(), id))
  const bodyRef = useRef<HTMLDivElement>(null)
  const drag = useRef<{ y: number; h: number; max: number } | null>(null)
  const toggle = () => {
    if (beside) {
      setPanelOpen(storage(), id, !open)
      setOwnOpen(!open)
    } else group?.setOpen(open ? '' : id)
  }
  // The room a body may take: over the timeline, down to the page's end; beside it, the window's height.
  const room = () => {
    const main = bodyRef.current?.closest('.run-main')
    if (beside || !main || !bodyRef.current) return window.innerHeight
    return main.getBoundingClientRect().bottom - bodyRef.current.getBoundingClientRect().top - 10
  }
  const keep = (h: number | null) => {
    setHeight(h)
    setPanelHeight(storage(), id, h)
  }
  // A question waiting shows with the panel closed: in the column, or over
  // the timeline, where on coming it closes another panel open there rather than lie under it.
  const sheet = open || !!always
  const waiting = !!always
  const groupRef = useRef(group)
  groupRef.current = group
  useEffect(() => {
    const g = groupRef.current
    if (waiting && g && !g.beside && g.open !== '' && g.open !== id) g.setOpen('')
  }, [waiting, id])
  return (
    <section className={`run-panel ${className}`} data-panel={id} data-open={open} data-testid={testId} {...attrs}>
      <h3 className="panel-head">
        <button type="button" className="panel-toggle" aria-expanded={open} onClick={toggle} title={t(open ? 'panel.collapse' : 'panel.expand', { name })} data-testid={`panel-toggle-${id}`}>
          <span className="chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>{' '}
          <span className="panel-title">{title}</span>
        </button>
        {summary && (
          <span className="panel-summary muted" data-testid={`panel-summary-${id}`}>
            {summary}
          </span>
        )}
        {actions && <span className="panel-actions">{actions}</span>}
      </h3>
      {sheet && (
        <div className="panel-sheet" data-testid={`panel-sheet-${id}`}>
          {always}
          {open && (
            <>
              <div className="panel-body" ref={bodyRef} style={height !== null ? { height } : undefined} data-testid={`panel-body-${id}`}>
                {children}
              </div>
              <div
                className="panel-resize"
                role="separator"
                aria-orientation="horizontal"
                aria-label={t('panel.resize', { name })}
                title={t('panel.resize_hint')}
                tabIndex={0}
                data-testid={`panel-resize-${id}`}
                onPointerDown={(e) => {
                  const body = bodyRef.current
                  if (!body) return
                  e.currentTarget.setPointerCapture(e.pointerId)
                  drag.current = { y: e.clientY, h: body.getBoundingClientRect().height, max: room() }
                }}
                onPointerMove={(e) => {
                  const d = drag.current
                  if (d) setHeight(draggedHeight(d.h, e.clientY - d.y, d.max))
                }}
                onPointerUp={(e) => {
                  const d = drag.current
                  drag.current = null
                  if (d) keep(draggedHeight(d.h, e.clientY - d.y, d.max))
                }}
                onDoubleClick={() => keep(null)}
                onKeyDown={(e) => {
                  const body = bodyRef.current
                  if (!body || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return
                  e.preventDefault()
                  e.stopPropagation()
                  keep(draggedHeight(body.getBoundingClientRect().height, e.key === 'ArrowDown' ? keyStep : -keyStep, room()))
                }}
              />
            </>
          )}
        </div>
      )}
    </section>
  )
}
