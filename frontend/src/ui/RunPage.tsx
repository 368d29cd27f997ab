import { formatCount, formatDateTime, formatDuration, formatTokens, parseTime } from '../lib/format'
import { runsHref } from '../lib/route'
import { useAppState, useT } from './context'
import { EventList } from './EventList'
import { StatusBadge } from './StatusBadge'

export function RunPage({ runId }: { runId: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const open = useAppState((s) => s.open)
  const { view } = open
  const started = parseTime(view.started)
  const ended = parseTime(view.ended)

  return (
    <section className="page run-page" data-testid="run-page" data-run-id={runId}>
      <a className="back" href={runsHref} data-testid="run-back">
        ← {t('run.back')}
      </a>
      {open.status === 'loading' && <p className="muted">{t('run.loading')}</p>}
      {open.status === 'error' && open.error && (
        <div className="notice notice-error" role="alert" data-testid="run-error">
          {t('run.error', { error: open.error.messageIn(lang) })}
        </div>
      )}
      {open.status === 'ready' && (
        <>
          <header className="run-head">
            <h1 className="run-task" data-testid="run-title">{view.task || t('runs.untitled')}</h1>
            <StatusBadge status={view.status} />
          </header>
          <dl className="run-meta">
            <Meta label={t('run.model')} value={view.model || '–'} />
            <Meta label={t('run.workspace')} value={view.workspace || '–'} />
            <Meta label={t('run.started')} value={formatDateTime(view.started, lang)} />
            <Meta label={t('run.duration')} value={started && ended ? formatDuration(ended.getTime() - started.getTime()) : '–'} />
            <Meta label={t('run.iterations')} value={formatCount(view.iterations.length, lang)} testId="run-iterations" />
            <Meta label={t('run.tokens')} value={formatTokens(view.tokens, lang)} testId="run-tokens" />
            <Meta label={t('run.tool_calls')} value={formatCount(view.toolCalls, lang)} />
          </dl>
          {view.answer && (
            <div className="answer" data-testid="run-answer">
              <h2>{t('run.answer')}</h2>
              <p>{view.answer}</p>
              {!view.verified && <p className="warn">{t('run.unverified')}</p>}
            </div>
          )}
          {view.error && <div className="notice notice-error">{view.error}</div>}
          <div className="events-head">
            <h2>{t('run.events')}</h2>
            <span className="muted">{t('run.events_count', { count: open.events.length })}</span>
          </div>
          {open.events.length === 0 ? <p className="muted">{t('run.no_events')}</p> : <EventList events={open.events} />}
        </>
      )}
    </section>
  )
}

function Meta({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="meta">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  )
}
