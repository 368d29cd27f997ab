import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef, useState } from 'react'
import type { HermesEvent } from '../api/types'
import { formatCost, runCost } from '../lib/cost'
import { formatMs, ticks, waterfall, type Span, type WaterfallRow } from '../lib/waterfall'
import type { MessageKey } from '../i18n/messages'
import { useT } from './appContext'
import './waterfall.css'

const laneHeight = 14
const rowPad = 6
const lineHeight = 22

interface WaterfallProps {
  events: readonly HermesEvent[]
  selected: number | null
  /** Selects iteration n's card. */
  onSelect: (n: number) => void
}

/**
 * Waterfall shows where a run's time went: each model turn (waiting for the
 * first token, then streaming), each tool call, retry, approval wait and
 * stage call as bars on one time axis, one row per iteration with parallel
 * calls stacked; or, dense, one line per span as a trace viewer lists them.
 * Only the rows in view are drawn, so a run of a thousand iterations stays fast.
 */
export function Waterfall({ events, selected, onSelect }: WaterfallProps) {
  const t = useT()
  const [dense, setDense] = useState(false)
  const w = useMemo(() => waterfall(events), [events])
  const cost = useMemo(() => runCost(events), [events])
  const scrollRef = useRef<HTMLDivElement>(null)
  const count = dense ? w.spans.length : w.rows.length
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (dense ? lineHeight : rowHeight(w.rows[i])),
    overscan: 8,
    getItemKey: (i) => (dense ? w.spans[i].id : w.rows[i].iteration),
  })
  const end = Math.max(1, w.end)
  const axis = ticks(end)
  const pct = (ms: number) => `${(ms / end) * 100}%`
  // A model turn's name is what it gave, a stage call's its stage, a pause where it was, said in the page's language.
  const named = (s: Span) =>
    s.kind === 'first_token' || s.kind === 'stream' || s.kind === 'model' || s.kind === 'pause'
      ? t(`wf.name.${s.name}` as MessageKey)
      : s.kind === 'stage' && s.name in stageNames
        ? t(stageNames[s.name])
        : s.name
  const title = (s: Span) =>
    t('wf.bar_title', { name: named(s), kind: t(`wf.kind.${s.kind}` as MessageKey), duration: formatMs(s.duration), start: formatMs(s.start), status: t(`wf.status.${s.status}` as MessageKey) })
  const bar = (s: Span, top: number) => (
    <button
      type="button"
      key={s.id}
      className={`wf-bar wf-${s.kind} wf-${s.status}`}
      style={{ left: pct(s.start), width: `max(2px, ${pct(s.duration)})`, top }}
      title={title(s)}
      onClick={() => onSelect(s.iteration)}
      data-testid="wf-bar"
      data-kind={s.kind}
      data-name={s.name}
      data-iteration={s.iteration}
      data-start={Math.round(s.start)}
      data-duration={Math.round(s.duration)}
      data-status={s.status}
    />
  )

  if (w.spans.length === 0) return <p className="muted">{t('wf.empty')}</p>
  return (
    <div className="waterfall" data-testid="waterfall" data-mode={dense ? 'dense' : 'bars'}>
      <div className="wf-head">
        <span data-testid="wf-total">{t('wf.total', { duration: formatMs(w.end), cost: formatCost(cost) })}</span>
        <span className="wf-legend">
          {(['first_token', 'stream', 'tool', 'retry', 'approval', 'stage', 'pause'] as const).map((k) => (
            <span key={k}>
              <span className={`wf-swatch wf-${k}`} />
              {t(`wf.kind.${k}`)}
            </span>
          ))}
        </span>
        <span className="spacer" />
        <div className="wf-mode" role="group">
          <button type="button" className={dense ? '' : 'active'} aria-pressed={!dense} onClick={() => setDense(false)} data-testid="wf-bars">
            {t('wf.bars')}
          </button>
          <button type="button" className={dense ? 'active' : ''} aria-pressed={dense} onClick={() => setDense(true)} data-testid="wf-dense">
            {t('wf.dense')}
          </button>
        </div>
      </div>
      <div className="wf-axis">
        <span className="wf-label">{dense ? t('wf.col.span') : t('wf.col.iteration')}</span>
        {dense && <span className="wf-num">{t('wf.col.start')}</span>}
        {dense && <span className="wf-num">{t('wf.col.duration')}</span>}
        <span className="wf-track">
          {axis.map((v) => (
            <span key={v} className="wf-tick" style={{ left: pct(v) }}>
              {formatMs(v)}
            </span>
          ))}
        </span>
      </div>
      <div className="wf-scroll" ref={scrollRef} data-testid="wf-scroll">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            if (dense) {
              const s = w.spans[v.index]
              return (
                <div
                  key={v.key}
                  className={`wf-line${s.iteration === selected ? ' selected' : ''}`}
                  style={{ transform: `translateY(${v.start}px)`, height: lineHeight }}
                  onClick={() => onSelect(s.iteration)}
                  data-testid="wf-line"
                  data-iteration={s.iteration}
                >
                  <span className="wf-label" title={title(s)}>
                    <span className="muted">{s.iteration === 0 ? t('card.start') : `#${s.iteration}`}</span> {named(s)} <span className="muted">{t(`wf.kind.${s.kind}` as MessageKey)}</span>
                  </span>
                  <span className="wf-num">{formatMs(s.start)}</span>
                  <span className="wf-num">{formatMs(s.duration)}</span>
                  <span className="wf-track">{bar(s, 4)}</span>
                  <span className={`wf-status wf-${s.status}`}>{t(`wf.status.${s.status}` as MessageKey)}</span>
                </div>
              )
            }
            const r = w.rows[v.index]
            return (
              <div
                key={v.key}
                className={`wf-row${r.iteration === selected ? ' selected' : ''}`}
                style={{ transform: `translateY(${v.start}px)`, height: rowHeight(r) }}
                data-testid="wf-row"
                data-iteration={r.iteration}
              >
                <button type="button" className="wf-label link" onClick={() => onSelect(r.iteration)} title={t('wf.row_title', { n: r.iteration })}>
                  {r.iteration === 0 ? t('card.start') : `#${r.iteration}`} <span className="muted">{formatMs(r.end - r.start)}</span>{' '}
                  <span className="muted" data-testid="wf-row-cost">
                    {formatCost(r)}
                  </span>
                </button>
                <span className="wf-track">{r.spans.map((s) => bar(s, rowPad / 2 + s.lane * laneHeight))}</span>
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}

const stageNames: Record<string, MessageKey> = {
  'route.decided': 'wf.stage.route',
  'plan.created': 'wf.stage.plan',
  'plan.revised': 'wf.stage.replan',
  'step.evaluated': 'wf.stage.step',
  'completion.checked': 'wf.stage.completion',
}

function rowHeight(r: WaterfallRow | undefined): number {
  return rowPad + (r?.lanes ?? 1) * laneHeight
}
