import { useEffect, useRef, useState } from 'react'
import { Icon } from './Icon'
import { runStatuses, type RunSummary } from '../api/types'
import { askedBy } from '../lib/askedby'
import { formatCost } from '../lib/cost'
import { statusLabel } from '../lib/events'
import { formatDateTime, formatTokens, oneLine } from '../lib/format'
import { newRunHref, runHref } from '../lib/route'
import { labelMatches, type LabelFilter } from '../lib/evals'
import { filterRuns, runLabel } from '../lib/runs'
import { useAppState, useAppStore, useLabelsState, useRunsState, useT } from './appContext'
import { ReplicaTag } from './ReplicaTag'
import { StatusBadge } from './StatusBadge'

export function RunsPage() {
  const { runs: store, labels } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const runs = useRunsState((s) => s)
  const byLabel = useLabelsState((s) => s.byRun)
  const labelFilter = useLabelsState((s) => s.filter)
  const shown = filterRuns(runs.index, runs.filter).filter((r) => labelMatches(byLabel[r.run_id], labelFilter))
  useEffect(() => {
    void labels.load()
  }, [labels])
  const total = runs.index.ids.length
  // A label filter lists what the server found: none found is no match, not an empty home.
  const filtering = total > 0 || runs.label !== ''
  const chooseLabel = (f: LabelFilter) => {
    labels.setFilter(f)
    void store.setLabel(f === 'good' || f === 'bad' ? f : '')
  }

  return (
    <section className="page runs-page" data-testid="runs-page">
      <div className="page-head">
        <h1>{t('runs.heading')}</h1>
        {total > 0 && <span className="muted" data-testid="runs-count">{t(runs.next ? 'runs.count_more' : 'runs.count', { shown: shown.length, total })}</span>}
        <div className="spacer" />
        <button type="button" onClick={() => void store.load()} disabled={runs.status === 'loading'}>
          {t('runs.reload')}
        </button>
      </div>

      {filtering && (
        <div className="filters">
          <input
            type="search"
            data-testid="runs-search"
            placeholder={t('runs.search')}
            value={runs.filter.text}
            onChange={(e) => store.setFilter({ text: e.target.value })}
          />
          <select data-testid="runs-status-filter" value={runs.filter.status} onChange={(e) => store.setFilter({ status: e.target.value })}>
            <option value="">{t('runs.all_statuses')}</option>
            {runStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s, lang)}
              </option>
            ))}
          </select>
          <select data-testid="runs-label-filter" value={labelFilter} onChange={(e) => chooseLabel(e.target.value as LabelFilter)}>
            <option value="">{t('label.all')}</option>
            <option value="good">{t('label.good')}</option>
            <option value="bad">{t('label.bad')}</option>
            <option value="none">{t('label.none')}</option>
          </select>
        </div>
      )}

      {runs.status === 'error' && runs.error && (
        <div className="notice notice-error" role="alert">
          {t('runs.error', { error: runs.error.messageIn(lang) })}{' '}
          <button type="button" onClick={() => void store.load()}>
            {t('runs.retry')}
          </button>
        </div>
      )}
      {runs.actionError && (
        <div className="notice notice-error" role="alert" data-testid="runs-action-error">
          {runs.actionError.messageIn(lang)}
        </div>
      )}
      {runs.status === 'loading' && total === 0 && <p className="muted">{t('runs.loading')}</p>}

      {runs.status === 'ready' && !filtering && (
        <div className="empty" data-testid="runs-empty">
          <h2>{t('runs.empty.title')}</h2>
          <p>{t('runs.empty.body')}</p>
          <p>
            <a className="button primary" href={newRunHref}>
              {t('new.button')}
            </a>
          </p>
          <pre className="command">{t('runs.empty.example')}</pre>
          <p className="muted">{t('runs.empty.home')}</p>
        </div>
      )}

      {filtering && runs.status === 'ready' && shown.length === 0 && !runs.next && <p className="muted">{t('runs.no_match')}</p>}

      {shown.length > 0 && (
        <table className="runs-table" data-testid="runs-table">
          <thead>
            <tr>
              <th className="col-task">{t('runs.col.task')}</th>
              <th>{t('runs.col.status')}</th>
              <th>{t('runs.col.started')}</th>
              <th className="num">{t('runs.col.iterations')}</th>
              <th className="num">{t('runs.col.tokens')}</th>
              <th className="num">{t('runs.col.cost')}</th>
              <th className="col-actions" aria-label={t('runs.col.actions')} />
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <RunRow key={r.run_id} run={r} />
            ))}
          </tbody>
        </table>
      )}
      {runs.next && <MoreRuns next={runs.next} loading={runs.loadingMore} />}
    </section>
  )
}

/**
 * MoreRuns loads the next page of older runs when it scrolls into view (a
 * filtered list that is short keeps it in view, so pages load until the
 * screen is full or the runs run out), or when clicked.
 */
function MoreRuns({ next, loading }: { next: string; loading: boolean }) {
  const { runs: store } = useAppStore()
  const t = useT()
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = ref.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    // Observed anew after every page: the first callback says whether it is still in view.
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void store.more()
    })
    seen.observe(el)
    return () => seen.disconnect()
  }, [store, next])
  return (
    <div className="runs-more" ref={ref} data-testid="runs-more">
      <button type="button" onClick={() => void store.more()} disabled={loading}>
        {loading ? t('runs.loading_more') : t('runs.more')}
      </button>
    </div>
  )
}

function RunRow({ run: r }: { run: RunSummary }) {
  const { runs: store } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const open = () => (window.location.hash = runHref(r.run_id))
  const stop = (e: React.SyntheticEvent) => e.stopPropagation()
  const label = runLabel(r)
  const verdict = useLabelsState((s) => s.byRun[r.run_id])

  return (
    <tr className={`run-row${r.live ? ' live' : ''}`} data-testid="run-row" data-run-id={r.run_id} data-live={r.live ? 'true' : 'false'} data-sample={r.sample ? 'true' : 'false'} onClick={open}>
      <td className="col-task">
        {renaming === null ? (
          <a href={runHref(r.run_id)} data-testid="run-task" title={r.task}>
            {oneLine(label, 120) || t('runs.untitled')}
          </a>
        ) : (
          <form
            className="rename"
            onClick={stop}
            onSubmit={(e) => {
              e.preventDefault()
              void store.rename(r.run_id, renaming.trim()).then((ok) => ok && setRenaming(null))
            }}
          >
            <input autoFocus data-testid="rename-input" value={renaming} onChange={(e) => setRenaming(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)} />
            <button type="submit" className="primary">{t('runs.rename_save')}</button>
            <button type="button" onClick={() => setRenaming(null)}>{t('common.cancel')}</button>
          </form>
        )}
        <div className="run-sub muted">
          {r.live && <span className="live-dot" title={t('runs.live')} />}
          {r.sample && <span className="tag">{t('runs.sample')}</span>}
          <ReplicaTag run={r} />
          {verdict?.label && (
            <span className={`tag label-${verdict.label}`} data-testid="run-row-label" data-label={verdict.label} title={verdict.note}>
              {verdict.label === 'good' ? t('label.good') : t('label.bad')}
            </span>
          )}
          {r.forked_from && <ForkOf from={r.forked_from} />}
          {r.origin && (
            <span className="tag" data-testid="run-origin" title={askedBy(r.asked_by) ? r.origin : t('runs.origin_hint')}>
              {askedBy(r.asked_by) ? t('runs.asked_by', { who: askedBy(r.asked_by) }) : t('runs.origin', { origin: r.origin })}
            </span>
          )}
          {r.title && r.title !== r.task && <span title={r.task}>{oneLine(r.task, 60)} · </span>}
          {r.model} · {r.run_id}
        </div>
      </td>
      <td>
        <StatusBadge status={r.status} />
        {r.paused && <span className="badge badge-paused">{t('run.paused')}</span>}
        {r.pending_approval && <span className="badge badge-approval">{t('run.awaiting_approval')}</span>}
      </td>
      <td className="nowrap" data-testid="run-started">{formatDateTime(r.started, lang)}</td>
      <td className="num" data-testid="run-iterations">{r.iterations}</td>
      <td className="num" data-testid="run-tokens" title={String(r.tokens)}>
        {formatTokens(r.tokens, lang)}
      </td>
      {/* The cost the run's events priced (backend/price); "—" when its model has no price. */}
      <td className="num nowrap" data-testid="run-cost" title={r.cost === undefined ? t('cost.none') : undefined}>
        {formatCost(r)}
      </td>
      <td className="col-actions nowrap" onClick={stop}>
        {!r.sample && renaming === null && !confirming && (
          <>
            <button type="button" className="icon" title={t('runs.rename')} aria-label={t('runs.rename')} data-testid="run-rename" onClick={() => setRenaming(label)}>
              ✎
            </button>
            <button type="button" className="icon" title={t('runs.delete')} aria-label={t('runs.delete')} data-testid="run-delete" disabled={r.live} onClick={() => setConfirming(true)}>
              <Icon name="trash" />
            </button>
          </>
        )}
        {confirming && (
          <span className="confirm">
            {t('runs.delete_confirm')}{' '}
            <button type="button" className="danger" data-testid="run-delete-confirm" onClick={() => void store.remove(r.run_id).then(() => setConfirming(false))}>
              {t('runs.delete')}
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
          </span>
        )}
      </td>
    </tr>
  )
}

/** ForkOf names the run a fork came from, by its title when the list holds it, and links it. */
function ForkOf({ from }: { from: NonNullable<RunSummary['forked_from']> }) {
  const t = useT()
  const id = from.run_id ?? ''
  const parent = useRunsState((s) => s.index.byId[id])
  const title = oneLine(parent?.title || parent?.task || id, 40)
  return (
    <a className="tag" href={runHref(id)} title={id} data-testid="run-fork-of" onClick={(e) => e.stopPropagation()}>
      {t('runs.fork_of', { title, n: from.iteration ?? 0 })}
    </a>
  )
}
