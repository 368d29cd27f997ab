import { useEffect, useState } from 'react'
import { toApiError } from '../api/api'
import type { CaseProposal } from '../api/types'
import { useAppState, useAppStore, useLabelsState, useT } from './appContext'
import { Modal } from './Dialogs'
import './evals.css'

/**
 * RunLabelBar is a finished run's verdict: a person marks it good or bad
 * with a note (PUT /api/runs/{id}/label), and saves it as a test case of a
 * suite, one click away once it is marked bad (docs/evals.md).
 */
export function RunLabelBar({ runId }: { runId: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const { labels } = useAppStore()
  const label = useLabelsState((s) => s.byRun[runId])
  const loaded = useLabelsState((s) => s.status)
  const error = useLabelsState((s) => s.error)
  const [editing, setEditing] = useState<{ label: string; note: string } | null>(null)
  const [saving, setSaving] = useState(false)
  const [caseOpen, setCaseOpen] = useState(false)
  useEffect(() => {
    if (loaded === 'idle') void labels.load()
  }, [labels, loaded])
  const save = async (l: string, note: string) => {
    setSaving(true)
    if (await labels.mark(runId, l, note)) setEditing(null)
    setSaving(false)
  }
  return (
    <div className="run-label" data-testid="run-label" data-label={label?.label ?? ''}>
      {label?.label && !editing && (
        <>
          <span className={`tag label-${label.label}`} data-testid="run-label-tag">
            {label.label === 'good' ? t('label.good') : t('label.bad')}
          </span>
          {label.note && (
            <span className="muted" data-testid="run-label-note">
              {label.note}
            </span>
          )}
          <button type="button" className="link" data-testid="run-label-change" onClick={() => setEditing({ label: label.label, note: label.note ?? '' })}>
            {t('label.change')}
          </button>
        </>
      )}
      {!label?.label && !editing && (
        <>
          <span className="muted">{t('label.ask')}</span>
          <button type="button" data-testid="run-label-good" onClick={() => setEditing({ label: 'good', note: '' })}>
            👍 {t('label.good')}
          </button>
          <button type="button" data-testid="run-label-bad" onClick={() => setEditing({ label: 'bad', note: '' })}>
            👎 {t('label.bad')}
          </button>
        </>
      )}
      {editing && (
        <form
          className="run-label"
          onSubmit={(e) => {
            e.preventDefault()
            void save(editing.label, editing.note.trim())
          }}
        >
          <select value={editing.label} onChange={(e) => setEditing({ ...editing, label: e.target.value })} data-testid="run-label-select">
            <option value="good">{t('label.good')}</option>
            <option value="bad">{t('label.bad')}</option>
          </select>
          <input type="text" autoFocus placeholder={t('label.note')} value={editing.note} onChange={(e) => setEditing({ ...editing, note: e.target.value })} data-testid="run-label-note-input" />
          <button type="submit" className="primary" disabled={saving} data-testid="run-label-save">
            {t('label.save')}
          </button>
          {label?.label && (
            <button type="button" disabled={saving} data-testid="run-label-remove" onClick={() => void save('', '')}>
              {t('label.remove')}
            </button>
          )}
          <button type="button" onClick={() => setEditing(null)}>
            {t('common.cancel')}
          </button>
        </form>
      )}
      <button type="button" className={label?.label === 'bad' ? 'primary' : ''} data-testid="run-save-case" onClick={() => setCaseOpen(true)}>
        {t('case.button')}
      </button>
      {error && (
        <span className="notice notice-error" role="alert" data-testid="run-label-error">
          {error.messageIn(lang)}
        </span>
      )}
      {caseOpen && <CaseDialog runId={runId} onClose={() => setCaseOpen(false)} />}
    </div>
  )
}

/**
 * CaseDialog shows the test case proposed from the run (its task, the
 * checks from what it did, the files of its fixture) for the person to edit,
 * and saves it to the suite they name.
 */
function CaseDialog({ runId, onClose }: { runId: string; onClose: () => void }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const store = useAppStore()
  const [proposal, setProposal] = useState<CaseProposal | null>(null)
  const [text, setText] = useState('')
  const [suite, setSuite] = useState('')
  const [error, setError] = useState('')
  const [saved, setSaved] = useState('')
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    let on = true
    store.runCase(runId).then(
      (p) => {
        if (!on) return
        setProposal(p)
        setText(p.toml)
        setSuite(p.suite)
      },
      (err) => on && setError(toApiError(err).messageIn(lang)),
    )
    return () => {
      on = false
    }
  }, [store, runId, lang])
  const save = async () => {
    setBusy(true)
    setError('')
    try {
      const r = await store.saveCase(runId, { suite, toml: text })
      setSaved(r.suite)
    } catch (err) {
      setError(toApiError(err).messageIn(lang))
    }
    setBusy(false)
  }
  return (
    <Modal title={t('case.title')} onClose={onClose} testId="case-dialog" wide>
      <div className="case-dialog">
        {!proposal && !error && <p className="muted">{t('case.loading')}</p>}
        {proposal && (
          <>
            <p className="muted">{t('case.hint')}</p>
            <label>
              {t('case.suite')}
              <input type="text" value={suite} onChange={(e) => setSuite(e.target.value)} data-testid="case-suite" />
            </label>
            <p className="muted" data-testid="case-where">
              {proposal.workspace ? t('case.where_ws', { home: proposal.home, workspace: proposal.workspace }) : t('case.where', { home: proposal.home })}
            </p>
            <textarea value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} data-testid="case-toml" />
            {proposal.files.length > 0 ? (
              <p data-testid="case-files">
                {t('case.files', { dir: proposal.fixture ?? '' })} <code>{proposal.files.join(', ')}</code>
              </p>
            ) : (
              <p className="muted">{t('case.no_files')}</p>
            )}
            {(proposal.notes ?? []).map((n) => (
              <p key={n} className="notice">
                {n}
              </p>
            ))}
          </>
        )}
        {error && (
          <p className="notice notice-error" role="alert" data-testid="case-error">
            {error}
          </p>
        )}
        {saved && (
          <p className="notice" data-testid="case-saved">
            {t('case.saved', { suite: saved })}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="primary" disabled={!proposal || busy || !!saved} onClick={() => void save()} data-testid="case-save">
            {t('case.save')}
          </button>
          <button type="button" onClick={onClose}>
            {saved ? t('case.close') : t('common.cancel')}
          </button>
        </div>
      </div>
    </Modal>
  )
}
