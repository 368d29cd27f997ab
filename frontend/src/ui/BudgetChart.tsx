import { memo, useMemo, useState } from 'react'
import { axisTicks, budgetSeries, iterationTicks, layerOrder, type BudgetPoint } from '../lib/budget'
import { formatTokens } from '../lib/format'
import type { RunView } from '../lib/timeline'
import { useAppState, useRunState, useT } from './appContext'

const H = 100

// stackPaths draws each layer as an area stacked on the ones below it, in a
// coordinate space of one unit per iteration and H units of height. Each
// iteration is a step one unit wide, so a single iteration shows too. Each
// edge between two layers is written once, the top of one being the bottom
// of the next: a live run draws the chart again with each new request.
export function stackPaths(points: BudgetPoint[], top: number): string[] {
  const n = points.length
  const sum = new Array<number>(n).fill(0)
  // edge is the line over sum, left to right (up) and right to left (down).
  const edge = () => {
    let up = ''
    let down = ''
    for (let i = 0; i < n; i++) {
      const y = (H - (sum[i] / top) * H).toFixed(2)
      up += `${i > 0 ? 'L' : ''}${i},${y}L${i + 1},${y}`
      down = `${i + 1},${y}L${i},${y}${i > 0 ? 'L' : ''}${down}`
    }
    return { up, down }
  }
  let lower = edge()
  return layerOrder.map((layer) => {
    points.forEach((p, i) => (sum[i] += p.layers[layer]))
    const upper = edge()
    const d = `M${upper.up}L${lower.down}Z`
    lower = upper
    return d
  })
}

/**
 * budgetKey changes when the chart's series may have: contexts of past
 * iterations never change, so the series changes only when a request is
 * built or a turn's usage comes in.
 */
export function budgetKey(view: RunView): string {
  const last = view.iterations.at(-1)
  return `${view.iterations.length}:${last?.context?.seq ?? 0}:${last?.tokensIn ?? 0}`
}

type ChartProps = { view: RunView; onSelect: (n: number) => void }

/**
 * BudgetChart shows the context's tokens per layer across iterations,
 * against the window: Hermes's estimate of each request, counted before it
 * was sent. Hovering an iteration shows that estimate beside the prompt
 * tokens the provider reported (the card's figure); the selected iteration
 * is marked, compressions are marked and labelled, and the axes are drawn.
 * It is drawn again only when budgetKey changes: a live run's other events
 * leave it as it was.
 */
export const BudgetChart = memo(BudgetChartOf, (a: ChartProps, b: ChartProps) => a.onSelect === b.onSelect && budgetKey(a.view) === budgetKey(b.view))

function BudgetChartOf({ view, onSelect }: ChartProps) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const selected = useRunState((s) => s.selected)
  // Most runs use a small part of a large window: fit the data unless asked.
  const [fit, setFit] = useState(true)
  const [hover, setHover] = useState<number | null>(null)
  const key = budgetKey(view)
  const points = useMemo(() => budgetSeries(view), [key]) // eslint-disable-line react-hooks/exhaustive-deps -- the series changes only when budgetKey does, not with each new view
  const window = points.reduce((m, p) => Math.max(m, p.window), 0)
  const peak = points.reduce((m, p) => Math.max(m, p.total), 0)
  const top = fit || window === 0 ? Math.max(1, peak * 1.1) : Math.max(window, peak)
  const paths = useMemo(() => stackPaths(points, top), [points, top])
  const saved = points.at(-1)?.schemasSaved ?? 0
  if (points.length === 0) return null
  const windowY = window > 0 && window <= top ? H - (window / top) * H : null
  const n = points.length
  const sel = points.findIndex((p) => p.iteration === selected)
  const hovered = hover !== null ? points[hover] : null
  const indexAt = (e: React.MouseEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect()
    return Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * n)))
  }
  const yTicks = axisTicks(top).filter((v) => v <= top)

  return (
    <div className="budget-chart" data-testid="budget-chart">
      <div className="chart-head">
        <span className="chart-title">{t('chart.title')}</span>
        <span className="muted chart-peak">{t('chart.peak', { peak: formatTokens(peak, lang), window: formatTokens(window, lang) })}</span>
        <span className="legend">
          {layerOrder.map((l) => (
            <span key={l} data-testid={`legend-${l}`}>
              <span className={`swatch layer-${l}`} />
              {l === 'tool_schemas' && saved > 0 ? t('chart.schemas', { sent: formatTokens(points.at(-1)?.layers.tool_schemas ?? 0, lang), saved: formatTokens(saved, lang) }) : t(`layer.${l}`)}
            </span>
          ))}
          <span>
            <span className="swatch compressed" />
            {t('chart.compressed')}
          </span>
        </span>
        <span className="spacer" />
        <button type="button" className="link" onClick={() => setFit(!fit)} data-testid="chart-fit">
          {fit ? t('chart.show_window') : t('chart.fit')}
        </button>
      </div>
      <p className="muted chart-note" style={{ fontSize: 11, margin: '2px 0' }} data-testid="chart-note">
        {t('chart.estimate_note')}
      </p>
      <div style={{ display: 'flex', gap: 4 }}>
        <div style={{ position: 'relative', width: 44, flex: 'none', fontSize: 10 }} className="muted" aria-hidden="true" data-testid="chart-y-axis">
          {yTicks.map((v) => (
            <span key={v} style={{ position: 'absolute', right: 2, bottom: `calc(${(v / top) * 100}% - 6px)` }}>
              {formatTokens(v, lang)}
            </span>
          ))}
        </div>
        <div style={{ position: 'relative', flex: 1, minWidth: 0 }}>
          <svg
            viewBox={`0 0 ${n} ${H}`}
            preserveAspectRatio="none"
            className="chart"
            role="img"
            aria-label={t('chart.title')}
            onClick={(e) => onSelect(points[indexAt(e)].iteration)}
            onMouseMove={(e) => setHover(indexAt(e))}
            onMouseLeave={() => setHover(null)}
            data-testid="chart-svg"
          >
            {yTicks.map((v) => (
              <line key={v} x1={0} x2={n} y1={H - (v / top) * H} y2={H - (v / top) * H} className="grid-line" stroke="currentColor" strokeOpacity={0.12} vectorEffect="non-scaling-stroke" />
            ))}
            {sel >= 0 && <rect x={sel} y={0} width={1} height={H} className="selected-band" fill="currentColor" fillOpacity={0.1} data-testid="chart-selected" data-iteration={points[sel].iteration} />}
            {paths.map((d, i) => (
              <path key={layerOrder[i]} d={d} className={`area layer-${layerOrder[i]}`} />
            ))}
            {windowY !== null && <line x1={0} x2={n} y1={windowY} y2={windowY} className="window-line" vectorEffect="non-scaling-stroke" />}
            {points.map((p, i) =>
              p.compressed ? (
                <line key={p.iteration} x1={i} x2={i} y1={0} y2={H} className="compressed-line" vectorEffect="non-scaling-stroke" data-testid="chart-compressed">
                  <title>{t('chart.compressed_at', { n: p.iteration })}</title>
                </line>
              ) : null,
            )}
            {hover !== null && <rect x={hover} y={0} width={1} height={H} fill="none" stroke="currentColor" strokeOpacity={0.5} vectorEffect="non-scaling-stroke" />}
          </svg>
          {/* Compressions are labelled where they happened: before the request of that iteration. */}
          {points.map((p, i) =>
            p.compressed ? (
              <span key={p.iteration} className="muted" style={{ position: 'absolute', top: 0, left: `${(i / n) * 100}%`, fontSize: 10, paddingLeft: 2, pointerEvents: 'none' }} data-testid="chart-compressed-label">
                {t('chart.compressed_at', { n: p.iteration })}
              </span>
            ) : null,
          )}
          {hovered && (
            <div
              className="chart-tip"
              role="status"
              style={{ position: 'absolute', top: 12, left: 0, right: 0, background: 'var(--panel)', border: '1px solid var(--border)', borderRadius: 4, padding: '2px 6px', fontSize: 11, pointerEvents: 'none', zIndex: 1 }}
              data-testid="chart-tip"
            >
              {hovered.provider > 0
                ? t('chart.hover', { n: hovered.iteration, estimate: formatTokens(hovered.total, lang), provider: formatTokens(hovered.provider, lang), window: formatTokens(hovered.window, lang) })
                : t('chart.hover_estimate', { n: hovered.iteration, estimate: formatTokens(hovered.total, lang), window: formatTokens(hovered.window, lang) })}
            </div>
          )}
          <div style={{ position: 'relative', height: 14, fontSize: 10 }} className="muted" data-testid="chart-x-axis">
            {iterationTicks(n).map((i) => (
              <span key={i} style={{ position: 'absolute', left: `${((i + 0.5) / n) * 100}%`, transform: 'translateX(-50%)' }}>
                #{points[i].iteration}
              </span>
            ))}
          </div>
        </div>
      </div>
    </div>
  )
}
