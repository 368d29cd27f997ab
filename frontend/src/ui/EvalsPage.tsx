import { useEffect, useMemo, useState } from 'react'
import { toApiError } from '../api/api'
import type { HermesEvent } from '../api/types'
import type { Translate } from '../i18n/i18n'
import { alignFork } from '../lib/compare'
import { formatCost } from '../lib/cost'
import { cellOf, judgeReasons, pairFor, resultsOf, share, variantsOf, type EvalCell, type EvalDetail, type EvalRow, type JudgeVerdict } from '../lib/evals'
import { formatDateTime, formatDuration, formatTokens } from '../lib/format'
import { evalHref, evalsHref, runHref } from '../lib/route'
import { foldRun } from '../lib/timeline'
import { useAppState, useAppStore, useRunsState, useT } from './appContext'
import { Brief } from './CompareView'
import './compare.css'
import './evals.css'

/** refreshMs is how often a running eval is read again besides the runs feed: a run's result is kept after its last event. */
const refreshMs = 2000

type Loaded<T> = { status: 'loading' } | { status: 'error'; error: string } | { status: 'ready'; value: T }

/**
 * useLive reads load() when shown, again whenever the runs feed brings a
 * change (an eval's runs are runs of the home), and every refreshMs while
 * live says the thing read is still going on.
 */
function useLive<T>(load: () => Promise<T>, live: (v: T) => boolean, key: string): [Loaded<T>, () => void] {
  const lang = useAppState((s) => s.lang)
  const feed = useRunsState((s) => s.index)
  const [state, setState] = useState<{ key: string; loaded: Loaded<T> }>({ key, loaded: { status: 'loading' } })
  const [tick, setTick] = useState(0)
  const going = state.key === key && state.loaded.status === 'ready' && live(state.loaded.value)
  useEffect(() => {
    let on = true
    load().then(
      (value) => on && setState({ key, loaded: { status: 'ready', value } }),
      (err) => on && setState({ key, loaded: { status: 'error', error: toApiError(err).messageIn(lang) } }),
    )
    return () => {
      on = false
    }
  }, [load, lang, key, feed, tick])
  useEffect(() => {
    if (!going) return
    const id = setInterval(() => setTick((n) => n + 1), refreshMs)
    return () => clearInterval(id)
  }, [going])
  return [state.key === key ? state.loaded : { status: 'loading' }, () => setTick((n) => n + 1)]
}

/** EvalsPage is the home's evals (docs/evals.md), or one eval's table when evalId is set. */
export function EvalsPage({ evalId }: { evalId: string }) {
  return evalId ? <EvalView key={evalId} id={evalId} /> : <EvalList />
}

function EvalList() {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const store = useAppStore()
  const load = useMemo(() => () => store.evals(), [store])
  const [list] = useLive(load, (rows: EvalRow[]) => rows.some((r) => r.state === 'running'), 'list')
  return (
    <section className="page evals-page" data-testid="evals-page">
      <div className="page-head">
        <h1>{t('evals.heading')}</h1>
      </div>
      {list.status === 'loading' && <p className="muted">{t('evals.loading')}</p>}
      {list.status === 'error' && (
        <div className="notice notice-error" role="alert">
          {t('evals.error', { error: list.error })}
        </div>
      )}
      {list.status === 'ready' && list.value.length === 0 && (
        <div className="empty" data-testid="evals-empty">
          <h2>{t('evals.empty.title')}</h2>
          <p>{t('evals.empty.body')}</p>
          <pre className="command">hermes eval run evals/examples/strategies.toml --model MODEL</pre>
        </div>
      )}
      {list.status === 'ready' && list.value.length > 0 && (
        <table className="runs-table" data-testid="evals-table">
          <thead>
            <tr>
              <th>{t('evals.col.suite')}</th>
              <th>{t('evals.col.state')}</th>
              <th>{t('evals.col.variants')}</th>
              <th className="num">{t('evals.col.passed')}</th>
              <th className="num">{t('evals.col.failed')}</th>
              <th className="num">{t('evals.col.ungraded')}</th>
              <th className="num">{t('evals.col.errors')}</th>
              <th>{t('runs.col.started')}</th>
            </tr>
          </thead>
          <tbody>
            {list.value.map((ev) => (
              <tr key={ev.id} className="run-row" data-testid="eval-row" data-eval-id={ev.id} onClick={() => (window.location.hash = evalHref(ev.id))}>
                <td>
                  <a href={evalHref(ev.id)} data-testid="eval-link">
                    {ev.suite}
                  </a>
                  <div className="run-sub muted">
                    {ev.id}
                    {ev.baseline && <> · {t('evals.against', { id: ev.baseline })}</>}
                  </div>
                </td>
                <td>
                  <EvalState state={ev.state} t={t} />
                </td>
                <td>{variantsOf(ev).join(', ')}</td>
                <td className="num">{ev.passed}</td>
                <td className="num">{ev.failed}</td>
                <td className="num" data-testid="eval-row-ungraded">
                  {ev.ungraded}
                </td>
                <td className="num" data-testid="eval-row-errors">
                  {ev.errors}
                </td>
                <td className="nowrap">{formatDateTime(ev.started, lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function EvalState({ state, t }: { state: string; t: Translate }) {
  const known = state === 'running' || state === 'done' || state === 'stopped'
  return (
    <span className={`badge eval-state-${state}`} data-testid="eval-state" data-state={state}>
      {known ? t(`evals.state.${state}`) : state}
    </span>
  )
}

type Picked = { task: string; variant: string } | null

function EvalView({ id }: { id: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const store = useAppStore()
  const load = useMemo(() => () => store.evalDetail(id), [store, id])
  const [detail] = useLive(load, (d: EvalDetail) => d.state === 'running', id)
  const [picked, setPicked] = useState<Picked>(null)
  if (detail.status === 'loading') return <p className="muted">{t('evals.loading')}</p>
  if (detail.status === 'error')
    return (
      <section className="page evals-page" data-testid="eval-page">
        <p>
          <a href={evalsHref}>← {t('evals.heading')}</a>
        </p>
        <div className="notice notice-error" role="alert">
          {t('evals.error', { error: detail.error })}
        </div>
      </section>
    )
  const d = detail.value
  const variants = variantsOf(d)
  const tasks = d.tasks ?? []
  const done = (d.results ?? []).length
  const total = tasks.length * variants.length * Math.max(d.repeat, 1)
  return (
    <section className="page evals-page" data-testid="eval-page" data-eval-id={d.id} data-state={d.state}>
      <p>
        <a href={evalsHref} data-testid="evals-back">
          ← {t('evals.heading')}
        </a>
      </p>
      <div className="page-head">
        <h1>{d.suite}</h1>
        <EvalState state={d.state} t={t} />
        <span className="muted" data-testid="eval-progress">
          {t('evals.progress', { done, total })}
        </span>
      </div>
      <p className="muted">
        {d.id} · {d.suite_path} · {formatDateTime(d.started, lang)}
        {d.baseline && (
          <>
            {' · '}
            <a href={evalHref(d.baseline)} data-testid="eval-baseline">
              {t('evals.against', { id: d.baseline })}
            </a>
          </>
        )}
      </p>
      <p className="muted">{t('evals.matrix_hint')}</p>
      <table className="eval-matrix" data-testid="eval-matrix">
        <thead>
          <tr>
            <th>{t('evals.col.task')}</th>
            {variants.map((v) => (
              <th key={v}>{v}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task}>
              <th scope="row">{task}</th>
              {variants.map((v) => (
                <MatrixCell key={v} cell={cellOf(d, task, v)} task={task} variant={v} picked={picked?.task === task && picked.variant === v} onPick={() => setPicked({ task, variant: v })} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {picked && <CellRuns d={d} task={picked.task} variant={picked.variant} />}
      {variants.length >= 2 && tasks.length > 0 && <VariantsSideBySide d={d} tasks={tasks} variants={variants} />}
    </section>
  )
}

function MatrixCell({ cell, task, variant, picked, onPick }: { cell: EvalCell | undefined; task: string; variant: string; picked: boolean; onPick: () => void }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  if (!cell || cell.runs + cell.errors + cell.ungraded === 0)
    return (
      <td className="eval-cell empty" data-testid="eval-cell" data-task={task} data-variant={variant} data-runs="0">
        <span className="muted">{t('evals.cell.waiting')}</span>
      </td>
    )
  const delta = cell.delta ?? ''
  return (
    <td
      className={`eval-cell${delta ? ` delta-${delta}` : ''}${picked ? ' picked' : ''}${cell.passed === cell.runs && cell.errors + cell.ungraded === 0 ? ' all-pass' : cell.passed === 0 ? ' none-pass' : ''}`}
      data-testid="eval-cell"
      data-task={task}
      data-variant={variant}
      data-runs={cell.runs + cell.errors + cell.ungraded}
      data-passed={cell.passed}
      data-delta={delta}
      onClick={onPick}
      tabIndex={0}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onPick()}
      title={t('evals.cell.open')}
    >
      <div className="eval-cell-head">
        <b data-testid="eval-cell-passed">
          {cell.passed}/{cell.runs}
        </b>
        {cell.ungraded > 0 && (
          <span className="tag warn" data-testid="eval-cell-ungraded">
            {t('evals.cell.ungraded', { n: cell.ungraded })}
          </span>
        )}
        {cell.errors > 0 && (
          <span className="tag bad" data-testid="eval-cell-errors">
            {t('evals.cell.errors', { n: cell.errors })}
          </span>
        )}
        {delta && (
          <span className={`tag delta delta-${delta}`} data-testid="eval-cell-delta">
            {t(`evals.delta.${delta}`)}
            {cell.baseline_runs ? ` (${cell.baseline_passed ?? 0}/${cell.baseline_runs})` : ''}
          </span>
        )}
      </div>
      <div className="eval-cell-figures muted">
        <span title={t('evals.pass_at_k_hint')}>
          pass@{cell.k} {share(cell.pass_at_k)}
        </span>{' '}
        <span title={t('evals.pass_hat_k_hint')}>
          pass^{cell.k} {share(cell.pass_hat_k)}
        </span>
        <br />
        {formatDuration(cell.median_ms)} · {formatTokens(cell.tokens, lang)} · {formatCost({ cost: cell.cost, currency: undefined })}
      </div>
    </td>
  )
}

/** CellRuns are the runs of one cell: each opens its run page; failed checks and the judge's reasons are shown. */
function CellRuns({ d, task, variant }: { d: EvalDetail; task: string; variant: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const rs = resultsOf(d, task, variant)
  const reasons = judgeReasons(rs)
  return (
    <section className="eval-runs" data-testid="eval-cell-runs" data-task={task} data-variant={variant}>
      <h2>{t('evals.runs_of', { task, variant })}</h2>
      <ul>
        {rs.map((r) => (
          <li key={r.rep} data-testid="eval-run" data-pass={r.pass ? 'true' : 'false'}>
            <span className={`tag ${r.ungraded ? 'warn' : r.error ? 'bad' : r.pass ? 'ok' : 'warn'}`} data-testid="eval-run-mark">
              {r.ungraded ? t('evals.run.ungraded') : r.error ? t('evals.run.error') : r.pass ? t('evals.run.pass') : t('evals.run.fail')}
            </span>{' '}
            {r.run_id ? (
              <a href={runHref(r.run_id)} data-testid="eval-run-link">
                {t('evals.run.rep', { n: r.rep + 1 })} · {r.run_id}
              </a>
            ) : (
              t('evals.run.rep', { n: r.rep + 1 })
            )}{' '}
            <span className="muted">
              {t('evals.run.figures', { n: r.iterations, time: formatDuration(r.duration_ms) })}
            </span>
            {r.error && (
              <div className="notice notice-error" data-testid="eval-run-error">
                {r.error_in?.[lang] || r.error}
              </div>
            )}
            {(r.checks ?? []).some((c) => !c.pass && c.kind !== 'judge') && (
              <ul className="eval-checks">
                {(r.checks ?? [])
                  .filter((c) => !c.pass && c.kind !== 'judge')
                  .map((c, i) => (
                    <li key={i} data-testid="eval-failed-check">
                      <code>{c.kind}</code> {c.detail}
                    </li>
                  ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {reasons.length > 0 && (
        <div className="eval-judge" data-testid="eval-judge">
          <h3>{t('evals.judge')}</h3>
          <ul>
            {reasons.map((j) => (
              <li key={j.rep} data-testid="eval-judge-reason" data-pass={j.pass ? 'true' : 'false'} data-ungraded={j.ungraded ? 'true' : 'false'}>
                {t('evals.run.rep', { n: j.rep + 1 })}: <JudgeSaid j={j} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}

/** JudgeSaid is one verdict of the judge in the page's language: its score against the score it passes at, and its reason. */
function JudgeSaid({ j }: { j: JudgeVerdict }) {
  const t = useT()
  if (j.ungraded) return <span className="muted">{t('evals.judge.ungraded')}</span>
  if (j.score === undefined || j.passAt === undefined) return <>{j.detail}</>
  return (
    <>
      <span className={`tag ${j.pass ? 'ok' : 'warn'}`} data-testid="eval-judge-score">
        {t('evals.judge.score', { score: j.score.toFixed(2), pass_at: j.passAt.toFixed(2) })}
      </span>{' '}
      <span data-testid="eval-judge-said">{j.reason}</span>
    </>
  )
}

/**
 * VariantsSideBySide sets one run of a task under one variant beside one
 * under another, iteration by iteration as a fork beside its source (both
 * from #1), the iterations whose decisions differ marked.
 */
function VariantsSideBySide({ d, tasks, variants }: { d: EvalDetail; tasks: string[]; variants: string[] }) {
  const t = useT()
  const [task, setTask] = useState(tasks[0])
  const [a, setA] = useState(variants[0])
  const [b, setB] = useState(variants[1])
  const pair = pairFor(d, task, a, b)
  const select = (value: string, set: (v: string) => void, options: string[], testId: string) => (
    <select value={value} onChange={(e) => set(e.target.value)} data-testid={testId}>
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  )
  return (
    <section className="eval-pair" data-testid="eval-pair">
      <h2>{t('evals.pair.heading')}</h2>
      <div className="compare-picks">
        <label>
          {t('evals.col.task')} {select(task, setTask, tasks, 'eval-pair-task')}
        </label>
        <label>
          A {select(a, setA, variants, 'eval-pair-a')}
        </label>
        <label>
          B {select(b, setB, variants, 'eval-pair-b')}
        </label>
      </div>
      {pair ? <PairRuns a={pair[0].run_id ?? ''} b={pair[1].run_id ?? ''} /> : <p className="muted">{t('evals.pair.none')}</p>}
    </section>
  )
}

function PairRuns({ a, b }: { a: string; b: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const store = useAppStore()
  const [events, setEvents] = useState<{ key: string; value: [HermesEvent[], HermesEvent[]] } | { key: string; error: string } | null>(null)
  const key = `${a} ${b}`
  useEffect(() => {
    let on = true
    Promise.all([store.runEvents(a), store.runEvents(b)]).then(
      (value) => on && setEvents({ key, value }),
      (err) => on && setEvents({ key, error: toApiError(err).messageIn(lang) }),
    )
    return () => {
      on = false
    }
  }, [store, a, b, key, lang])
  const al = useMemo(() => {
    if (!events || events.key !== key || 'error' in events) return null
    // Neither run is a fork: both start at #1, so #k stands beside #k.
    return alignFork(foldRun(events.value[0], a), { ...foldRun(events.value[1], b), forkedFrom: null })
  }, [events, key, a, b])
  if (events && events.key === key && 'error' in events) return <p className="notice notice-error">{t('evals.pair.error', { error: events.error })}</p>
  if (!al) return <p className="muted">{t('evals.pair.loading')}</p>
  return (
    <div data-testid="eval-pair-view" data-differ={al.differ}>
      <p className="muted" data-testid="eval-pair-summary">
        {t('evals.pair.summary', { differ: al.differ, compared: al.compared })}
      </p>
      <table className="fork-align" data-testid="eval-pair-align">
        <thead>
          <tr>
            <th>
              A · <a href={runHref(a)} data-testid="eval-pair-link-a">{a}</a>
            </th>
            <th>
              B · <a href={runHref(b)} data-testid="eval-pair-link-b">{b}</a>
            </th>
            <th />
          </tr>
        </thead>
        <tbody>
          {al.rows.map((r, i) => (
            <tr key={i} className={r.differs ? 'differs' : ''} data-testid="eval-pair-row" data-differs={r.differs ? 'true' : 'false'}>
              <td>{r.source ? <Brief it={r.source} /> : '–'}</td>
              <td>{r.fork ? <Brief it={r.fork} /> : '–'}</td>
              <td>{r.differs && <span className="tag warn">{t('fork.differs')}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
