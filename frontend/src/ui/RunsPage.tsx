import { runStatuses } from '../api/types'
import { formatDateTime, formatTokens, oneLine } from '../lib/format'
import { statusLabel } from '../lib/events'
import { filterRuns } from '../lib/runs'
import { runHref } from '../lib/route'
import { useAppState, useAppStore, useT } from './context'
import { StatusBadge } from './StatusBadge'

export function RunsPage() {
  const store = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const runs = useAppState((s) => s.runs)
  const filter = useAppState((s) => s.filter)
  const shown = filterRuns(runs.index, filter)
  const total = runs.index.ids.length

  return (
    <section className="page runs-page" data-testid="runs-page">
      <div className="page-head">
        <h1>{t('runs.heading')}</h1>
        {total > 0 && <span className="muted" data-testid="runs-count">{t('runs.count', { shown: shown.length, total })}</span>}
        <div className="spacer" />
        <button type="button" onClick={() => void store.loadRuns()} disabled={runs.status === 'loading'}>
          {t('runs.reload')}
        </button>
      </div>

      {total > 0 && (
        <div className="filters">
          <input
            type="search"
            data-testid="runs-search"
            placeholder={t('runs.search')}
            value={filter.text}
            onChange={(e) => store.setFilter({ text: e.target.value })}
          />
          <select data-testid="runs-status-filter" value={filter.status} onChange={(e) => store.setFilter({ status: e.target.value })}>
            <option value="">{t('runs.all_statuses')}</option>
            {runStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s, lang)}
              </option>
            ))}
          </select>
        </div>
      )}

      {runs.status === 'error' && runs.error && (
        <div className="notice notice-error" role="alert">
          {t('runs.error', { error: runs.error.messageIn(lang) })}{' '}
          <button type="button" onClick={() => void store.loadRuns()}>
            {t('runs.retry')}
          </button>
        </div>
      )}
      {runs.status === 'loading' && total === 0 && <p className="muted">{t('runs.loading')}</p>}

      {runs.status === 'ready' && total === 0 && (
        <div className="empty" data-testid="runs-empty">
          <h2>{t('runs.empty.title')}</h2>
          <p>{t('runs.empty.body')}</p>
          <pre className="command">{t('runs.empty.example')}</pre>
          <p className="muted">{t('runs.empty.home')}</p>
        </div>
      )}

      {total > 0 && shown.length === 0 && <p className="muted">{t('runs.no_match')}</p>}

      {shown.length > 0 && (
        <table className="runs-table" data-testid="runs-table">
          <thead>
            <tr>
              <th className="col-task">{t('runs.col.task')}</th>
              <th>{t('runs.col.status')}</th>
              <th>{t('runs.col.started')}</th>
              <th className="num">{t('runs.col.iterations')}</th>
              <th className="num">{t('runs.col.tokens')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr
                key={r.run_id}
                className="run-row"
                data-testid="run-row"
                data-run-id={r.run_id}
                onClick={() => (window.location.hash = runHref(r.run_id))}
              >
                <td className="col-task">
                  <a href={runHref(r.run_id)} data-testid="run-task" title={r.task}>
                    {oneLine(r.task, 120) || t('runs.untitled')}
                  </a>
                  <div className="run-sub muted">
                    {r.model} · {r.run_id}
                  </div>
                </td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td className="nowrap" data-testid="run-started">{formatDateTime(r.started, lang)}</td>
                <td className="num" data-testid="run-iterations">{r.iterations}</td>
                <td className="num" data-testid="run-tokens" title={String(r.tokens)}>
                  {formatTokens(r.tokens, lang)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
