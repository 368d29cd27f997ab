import { useEffect, useState } from 'react'
import type { MemoryEntry } from '../api/types'
import { formatDateTime } from '../lib/format'
import { memoryKinds, memorySource, whyRecalled } from '../lib/memory'
import { runHref } from '../lib/route'
import { useAppState, useAppStore, useMemoryState, useT } from './appContext'

/** MemoryPage lists the long-term memory: what runs learnt, with search, pin and forget. */
export function MemoryPage() {
  const { memory } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const status = useMemoryState((s) => s.status)
  const error = useMemoryState((s) => s.error)
  const actionError = useMemoryState((s) => s.actionError)
  const query = useMemoryState((s) => s.query)
  const kind = useMemoryState((s) => s.kind)
  const total = useMemoryState((s) => s.entries.length)
  useMemoryState((s) => s.entries)
  const shown = memory.shown()

  useEffect(() => {
    void memory.load()
  }, [memory])

  return (
    <section className="page memory-page" data-testid="memory-page">
      <div className="page-head">
        <h1>{t('memory.heading')}</h1>
        <span className="muted">{t('memory.count', { shown: shown.length, total })}</span>
        <span className="spacer" />
        <button type="button" onClick={() => void memory.load()} data-testid="memory-reload">
          {t('runs.reload')}
        </button>
      </div>
      <p className="muted page-intro">{t('memory.intro')}</p>
      <div className="filters">
        <input type="search" value={query} onChange={(e) => memory.setQuery(e.target.value)} placeholder={t('memory.search')} data-testid="memory-search" aria-label={t('memory.search')} />
        <select value={kind} onChange={(e) => memory.setKind(e.target.value)} data-testid="memory-kind" aria-label={t('memory.col.kind')}>
          <option value="">{t('memory.all_kinds')}</option>
          {memoryKinds.map((k) => (
            <option key={k} value={k}>
              {t(`memory.kind.${k}`)}
            </option>
          ))}
        </select>
      </div>
      {status === 'loading' && <p className="muted">{t('memory.loading')}</p>}
      {status === 'error' && error && (
        <div className="notice notice-error" role="alert" data-testid="memory-error">
          {t('memory.error', { error: error.messageIn(lang) })}
        </div>
      )}
      {actionError && (
        <div className="notice notice-error" role="alert" data-testid="memory-action-error">
          {actionError.messageIn(lang)}
        </div>
      )}
      {status === 'ready' && total === 0 && (
        <div className="empty" data-testid="memory-empty">
          <h2>{t('memory.empty.title')}</h2>
          <p>{t('memory.empty.body')}</p>
        </div>
      )}
      {status === 'ready' && total > 0 && shown.length === 0 && <p className="muted">{t('memory.no_match')}</p>}
      {shown.length > 0 && (
        <table className="runs-table memory-table" data-testid="memory-table">
          <thead>
            <tr>
              <th>{t('memory.col.kind')}</th>
              <th>{t('memory.col.text')}</th>
              <th>{t('memory.col.source')}</th>
              <th>{t('memory.col.created')}</th>
              <th>{t('memory.col.recalled')}</th>
              <th>{t('runs.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <MemoryRow key={e.id} e={e} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function MemoryRow({ e }: { e: MemoryEntry }) {
  const { memory } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const [confirming, setConfirming] = useState(false)
  const known = (memoryKinds as readonly string[]).includes(e.kind)
  return (
    <tr data-testid="memory-row" data-id={e.id} data-pinned={e.pinned ? 'true' : 'false'} className={e.pinned ? 'pinned' : ''}>
      <td className="nowrap">
        <span className={`chip kind-${e.kind}`}>{known ? t(`memory.kind.${e.kind as 'fact'}`) : e.kind}</span>
        {e.pinned && (
          <span className="tag pin-tag" title={t('memory.pinned_hint')}>
            {t('memory.pinned')}
          </span>
        )}
        {e.namespace && (
          <span className="tag" title={t('memory.namespace_hint')} data-testid="memory-namespace">
            {e.namespace}
          </span>
        )}
      </td>
      <td className="memory-text" data-testid="memory-text">
        {e.text}
      </td>
      <td className="nowrap">
        <span title={t('memory.source_hint')} data-testid="memory-origin">
          {memorySource(e, lang)}
        </span>
        {e.run_id && (
          <>
            <br />
            <a href={runHref(e.run_id)} data-testid="memory-source">
              {e.run_id}
            </a>
          </>
        )}
      </td>
      <td className="nowrap muted">{formatDateTime(e.created, lang)}</td>
      <td className="muted">
        {e.recalled ? `${formatDateTime(e.recalled, lang)} · ${t('memory.recalls', { n: e.recalls ?? 0 })}` : t('memory.never')}
        {e.last_recall && (
          <div className="memory-why" data-testid="memory-why">
            {whyRecalled(e.last_recall, lang)} · <a href={runHref(e.last_recall.run_id)}>{t('memory.why.by_run', { run: e.last_recall.run_id })}</a>
          </div>
        )}
      </td>
      <td className="nowrap row-actions">
        {confirming ? (
          <>
            <span className="muted">{t('memory.forget_confirm')}</span>{' '}
            <button type="button" className="danger" onClick={() => void memory.forget(e.id)} data-testid="memory-forget-confirm">
              {t('memory.forget')}
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="link" onClick={() => void memory.pin(e.id, !e.pinned)} data-testid="memory-pin">
              {e.pinned ? t('memory.unpin') : t('memory.pin')}
            </button>{' '}
            <button type="button" className="link" onClick={() => setConfirming(true)} data-testid="memory-forget">
              {t('memory.forget')}
            </button>
          </>
        )}
      </td>
    </tr>
  )
}
