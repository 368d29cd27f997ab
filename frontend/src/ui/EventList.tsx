import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef, useState } from 'react'
import type { HermesEvent } from '../api/types'
import { kindOf, summarizeEvent } from '../lib/events'
import { formatClock } from '../lib/format'
import { stageOf } from '../lib/plan'
import { stageName } from './IterationCard'
import { useAppState, useT } from './appContext'

// A run can have tens of thousands of events; only the rows on screen are
// rendered, and expanded rows are measured as they grow.
export function EventList({ events }: { events: HermesEvent[] }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const scrollRef = useRef<HTMLDivElement>(null)
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set())
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 34,
    overscan: 12,
    getItemKey: (i) => events[i].seq,
  })

  const toggle = (seq: number) =>
    setExpanded((prev) => {
      const next = new Set(prev)
      if (next.has(seq)) next.delete(seq)
      else next.add(seq)
      return next
    })

  return (
    <div className="events">
      <div className="event-row event-header" aria-hidden="true">
        <span className="ev-seq">{t('event.col.seq')}</span>
        <span className="ev-type">{t('event.col.type')}</span>
        <span className="ev-iter">{t('event.col.iteration')}</span>
        <span className="ev-time">{t('event.col.time')}</span>
        <span className="ev-summary">{t('event.col.summary')}</span>
      </div>
      <div className="events-scroll" ref={scrollRef} data-testid="event-list">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const e = events[item.index]
            const open = expanded.has(e.seq)
            const stage = stageOf(e)
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={`event kind-${kindOf(e.type)}${open ? ' open' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
                data-testid="event-row"
                data-seq={e.seq}
                data-type={e.type}
              >
                <button type="button" className="event-row" aria-expanded={open} title={t('event.expand')} onClick={() => toggle(e.seq)}>
                  <span className="ev-seq">{e.seq}</span>
                  <span className="ev-type">
                    <span className="chip">{e.type}</span>
                    {stage && (
                      <span className={`tag stage stage-${stage}`} data-testid="event-stage">
                        {stageName(t, stage)}
                      </span>
                    )}
                  </span>
                  <span className="ev-iter">{e.iteration > 0 ? e.iteration : ''}</span>
                  <span className="ev-time">{formatClock(e.time, lang)}</span>
                  <span className="ev-summary" data-testid="event-summary">
                    {summarizeEvent(e, lang)}
                  </span>
                </button>
                {open && (
                  <pre className="event-json" data-testid="event-json">
                    {JSON.stringify(e, null, 2)}
                  </pre>
                )}
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
