import type { Notice } from '../api/types'
import { formatBytes } from '../lib/format'
import { updateAction, updateNotes, updateProgress } from '../lib/notices'
import { useAppState, useAppStore, useNoticesState, useT } from './appContext'
import { Markdown } from './Markdown'

/**
 * Notices shows what concerns Hermes rather than one run: a banner while
 * hermes.toml has a mistake, a short toast when an edit was applied, and an
 * unobtrusive card while an update downloads and once it is ready.
 */
export function Notices() {
  const { notices } = useAppStore()
  const t = useT()
  // shown() reads the whole state; subscribing to these keeps it current.
  useNoticesState((s) => s.notices)
  useNoticesState((s) => s.dismissed)
  const toast = useNoticesState((s) => s.toast)
  const lang = useAppState((s) => s.lang)
  const shown = notices.shown()
  const config = shown.find((n) => n.kind === 'config_error')
  const update = shown.find((n) => n.kind === 'update')

  return (
    <>
      {config && <ConfigBanner n={config} />}
      {toast && (
        <div className="toast" role="status" data-testid="notice-toast">
          ✓ {toast.message?.[lang] ?? t('notice.reloaded')}
        </div>
      )}
      {update && <UpdateCard n={update} />}
    </>
  )
}

function ConfigBanner({ n }: { n: Notice }) {
  const { notices } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const problems = n.problems ?? []
  return (
    <div className="banner banner-error" role="alert" data-testid="config-banner">
      <div className="banner-body">
        <b>{n.message?.[lang] ?? n.message?.en ?? t('notice.config_title')}</b>
        <ul className="banner-problems">
          {problems.map((p, i) => (
            <li key={i} data-testid="config-problem" data-line={p.line ?? 0}>
              {p.message[lang] ?? p.message.en}
            </li>
          ))}
        </ul>
        {/* A mistake with a place is one `hermes config check` finds too; a vault that is not there is not. */}
        {problems.some((p) => (p.line ?? 0) > 0) && <span className="muted">{t('notice.config_check')}</span>}
      </div>
      <button type="button" className="icon" aria-label={t('notice.dismiss')} title={t('notice.dismiss')} onClick={() => notices.dismiss(n)} data-testid="config-dismiss">
        ×
      </button>
    </div>
  )
}

function UpdateCard({ n }: { n: Notice }) {
  const { notices } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const installing = useNoticesState((s) => s.installing)
  const installError = useNoticesState((s) => s.installError)
  const s = n.update
  if (!s) return null
  const notes = updateNotes(s, lang)
  const progress = updateProgress(s)
  const ready = s.state === 'ready'
  const failed = s.state === 'failed'
  const action = updateAction(n)
  return (
    <aside className={`update-card${failed ? ' failed' : ''}`} data-testid="update-notice" data-state={s.state} aria-live="polite">
      <div className="update-head">
        <b>{failed ? t('update.failed', { version: s.version ?? '' }) : ready ? t('update.ready', { version: s.version ?? '' }) : t('update.downloading', { version: s.version ?? '' })}</b>
        <button type="button" className="icon" aria-label={t('notice.dismiss')} title={t('notice.dismiss')} onClick={() => notices.dismiss(n)} data-testid="update-dismiss">
          ×
        </button>
      </div>
      <div className="muted">{t('update.installed', { version: s.installed })}</div>
      {notes && (
        <details className="update-notes" open={ready}>
          <summary>{t('update.notes')}</summary>
          <Markdown text={notes} testId="update-notes" lines={0} />
        </details>
      )}
      {!failed && !ready && (
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)} data-testid="update-progress">
          <span style={{ width: `${progress * 100}%` }} />
        </div>
      )}
      {s.state === 'downloading' && s.total ? (
        <div className="muted">
          {formatBytes(s.done ?? 0, lang)} / {formatBytes(s.total, lang)}
        </div>
      ) : null}
      {failed && <p className="update-error">{s.error}</p>}
      {action === 'restart' && (
        <button type="button" className="primary" disabled={installing} onClick={() => void notices.installUpdate()} data-testid="update-restart">
          {installing ? t('update.restarting') : t('update.restart')}
        </button>
      )}
      {action === 'cli' && (
        <p className="muted" data-testid="update-cli">
          {t('update.use_cli')} <code>hermes update</code>
        </p>
      )}
      {action === 'package' && (
        <p className="muted" data-testid="update-package">
          {t('update.package')} <code className="update-command">{s.command}</code>
        </p>
      )}
      {installError && <p className="update-error">{installError.messageIn(lang)}</p>}
    </aside>
  )
}
