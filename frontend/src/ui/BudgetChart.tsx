import { useMemo, useState } from 'react'
import { budgetSeries, layerOrder, type BudgetPoint } from '../lib/budget'
import { formatTokens } from '../lib/format'
import type { RunView } from '../lib/timeline'
import { useAppState, useT } from './context'

const H = 100

// stackPaths draws each layer as an area stacked on the ones below it, in a
// coordinate space of one unit per iteration and H units of height. Each
// iteration is a step one unit wide, so a single iteration shows too.
function stackPaths(points: BudgetPoint[], top: number): string[] {
  const y = (v: number) => (H - (v / top) * H).toFixed(2)
  const below = new Array<number>(points.length).fill(0)
  const steps = (values: number[]) => values.flatMap((v, i) => [`${i},${y(v)}`, `${i + 1},${y(v)}`])
  return layerOrder.map((layer) => {
    const lower = below.slice()
    points.forEach((p, i) => (below[i] += p.layers[layer]))
    return `M${steps(below).join('L')}L${steps(lower).reverse().join('L')}Z`
  })
}

/** BudgetChart shows the context's tokens per layer across iterations, against the window, with compressions marked. */
export function BudgetChart({ view, onSelect }: { view: RunView; onSelect: (n: number) => void }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  // Most runs use a small part of a large window: fit the data unless asked.
  const [fit, setFit] = useState(true)
  // Contexts of past iterations never change: the series changes only when
  // a request is built.
  const last = view.iterations.at(-1)
  const key = `${view.iterations.length}:${last?.context?.seq ?? 0}`
  const points = useMemo(() => budgetSeries(view), [key]) // eslint-disable-line react-hooks/exhaustive-deps
  const window = points.reduce((m, p) => Math.max(m, p.window), 0)
  const peak = points.reduce((m, p) => Math.max(m, p.total), 0)
  const top = fit || window === 0 ? Math.max(1, peak * 1.1) : Math.max(window, peak)
  const paths = useMemo(() => stackPaths(points, top), [points, top])
  const saved = points.at(-1)?.schemasSaved ?? 0
  if (points.length === 0) return null
  const windowY = window > 0 && window <= top ? H - (window / top) * H : null
  const n = points.length

  return (
    <div className="budget-chart" data-testid="budget-chart">
      <div className="chart-head">
        <span className="chart-title">{t('chart.title')}</span>
        <span className="muted">{t('chart.peak', { peak: formatTokens(peak, lang), window: formatTokens(window, lang) })}</span>
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
      <svg
        viewBox={`0 0 ${n} ${H}`}
        preserveAspectRatio="none"
        className="chart"
        role="img"
        aria-label={t('chart.title')}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect()
          const i = Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * n)))
          onSelect(points[i].iteration)
        }}
      >
        {paths.map((d, i) => (
          <path key={layerOrder[i]} d={d} className={`area layer-${layerOrder[i]}`} />
        ))}
        {windowY !== null && <line x1={0} x2={n} y1={windowY} y2={windowY} className="window-line" vectorEffect="non-scaling-stroke" />}
        {points.map((p, i) =>
          p.compressed ? <line key={p.iteration} x1={i + 0.5} x2={i + 0.5} y1={0} y2={H} className="compressed-line" vectorEffect="non-scaling-stroke" data-testid="chart-compressed" /> : null,
        )}
      </svg>
    </div>
  )
}
