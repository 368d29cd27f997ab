import { useEffect, useMemo, useState } from 'react'
import { toApiError, type ApiError } from '../api/api'
import type { ApprovalDecision, DecidedCall } from '../api/types'
import { prettyJSON } from '../lib/diff'
import { formatBytes } from '../lib/format'
import { shortcuts } from '../lib/shortcuts'
import { forkForm, forkMemoryModes, forkRequest, type ForkForm, type ForkMemory } from '../lib/fork'
import { readChange } from '../lib/notechange'
import { alwaysPattern, approvalChoices, approvalReason } from '../lib/sandbox'
import type { CallView, PendingApproval, RunView } from '../lib/timeline'
import { ChangeView } from './ChangeView'
import { CopyButton } from './CopyButton'
import { JsonText } from './JsonTree'
import { useAppState, useAppStore, useT } from './appContext'
import { FolderButton } from './FolderButton'

export function Modal({
  title,
  onClose,
  children,
  testId,
  wide,
  id,
}: {
  title: string
  onClose: () => void
  children: React.ReactNode
  testId: string
  wide?: boolean
  /** id names what the dialog is about (an approval's id), for a test or a script to find this one dialog. */
  id?: string
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div className="overlay" onClick={onClose}>
      <div className={`dialog${wide ? ' wide' : ''}`} role="dialog" aria-modal="true" aria-label={title} data-testid={testId} data-id={id} onClick={(e) => e.stopPropagation()}>
        <h2>{title}</h2>
        {children}
      </div>
    </div>
  )
}

/**
 * ApprovalDialog asks the person whether a call may run. An execute_command
 * line shows its commands one a line, what in it is always asked, and the
 * "always" patterns offered, editable; a call escaping the sandbox is
 * allowed once or denied, with a warning; a vault edit shows the change it
 * would make, its arguments folded below. Esc leaves it for later; the run
 * waits.
 */
export function ApprovalDialog({ pending, onLater }: { pending: PendingApproval; onLater: () => void }) {
  const { run } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const choices = approvalChoices(pending)
  const change = useMemo(() => readChange(pending.change), [pending.change])
  const [reason, setReason] = useState('')
  const [pattern, setPattern] = useState(choices.offered)
  const [busy, setBusy] = useState(false)
  const answer = async (d: ApprovalDecision) => {
    setBusy(true)
    await run.answer(d, d === 'deny' ? reason.trim() : '', d === 'allow_always' ? alwaysPattern(pattern, choices.offered) : '', pending.approval_id)
    setBusy(false)
  }
  return (
    <Modal title={t('approval.title', { name: pending.name ?? '?' })} onClose={onLater} testId="approval-dialog" id={pending.approval_id}>
      <p>
        <span className="tag warn">{t('approval.risk', { risk: pending.risk ?? '?' })}</span>
        {choices.escaping && <span className="tag bad">{t('approval.escaping_tag')}</span>} <span className="muted">{approvalReason(pending, lang)}</span>
      </p>
      {choices.escaping && (
        <div className="notice notice-escaping" role="alert" data-testid="approval-escaping">
          {t('approval.escaping')}
        </div>
      )}
      {choices.commands.length > 0 && (
        <div className="approval-commands" data-testid="approval-commands" aria-label={t('approval.commands')}>
          {choices.commands.map((c, i) => (
            <div key={i} data-testid="approval-command">
              {c}
            </div>
          ))}
        </div>
      )}
      {choices.risky.length > 0 && (
        <ul className="approval-risky" data-testid="approval-risky">
          {choices.risky.map((r, i) => (
            <li key={i}>{t('approval.risky', { why: r })}</li>
          ))}
        </ul>
      )}
      {change ? (
        <>
          <ChangeView change={change} />
          <details className="dialog-json">
            <summary>{t('change.arguments')}</summary>
            <JsonText text={pending.arguments ?? ''} open={3} />
          </details>
        </>
      ) : (
        <div className="dialog-json">
          <JsonText text={pending.arguments ?? ''} open={3} />
        </div>
      )}
      <div className="approval-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void answer('allow_once')} data-testid="approve-once">
          {t('approval.allow_once')}
        </button>
        {choices.lasting && (
          <button type="button" disabled={busy} onClick={() => void answer('allow_run')} data-testid="approve-run">
            {t('approval.allow_run', { name: pending.name ?? '?' })}
          </button>
        )}
      </div>
      {choices.lasting && choices.offered !== '' && <span className="approval-label">{t('approval.patterns')}</span>}
      {choices.lasting && (
        <div className="approval-row">
          <input
            className={choices.offered !== '' ? 'mono' : undefined}
            value={pattern}
            onChange={(e) => setPattern(e.target.value)}
            placeholder={choices.offered !== '' ? choices.offered : t('approval.pattern_hint')}
            title={choices.offered !== '' ? t('approval.patterns_hint') : undefined}
            data-testid="approve-pattern"
          />
          <button type="button" disabled={busy} onClick={() => void answer('allow_always')} data-testid="approve-always">
            {t('approval.allow_always')}
          </button>
        </div>
      )}
      <div className="approval-row">
        <input value={reason} onChange={(e) => setReason(e.target.value)} placeholder={t('approval.reason_hint')} data-testid="deny-reason" />
        <button type="button" className="danger" disabled={busy} onClick={() => void answer('deny')} data-testid="deny">
          {t('approval.deny')}
        </button>
      </div>
    </Modal>
  )
}

/** EditDialog edits a paused run: its task and standing instructions, and the arguments of decided calls that have not run. */
export function EditDialog({ task, instructions, pending, onClose }: { task: string; instructions: string; pending: DecidedCall[]; onClose: () => void }) {
  const { run } = useAppStore()
  const t = useT()
  const [newTask, setTask] = useState(task)
  const [newInstr, setInstr] = useState(instructions)
  const [args, setArgs] = useState<Record<string, string>>(() => Object.fromEntries(pending.map((c) => [c.id ?? '', prettyJSON(c.arguments ?? '')])))
  const [error, setError] = useState('')
  const save = async (andResume: boolean) => {
    setError('')
    for (const c of pending) {
      const text = args[c.id ?? ''] ?? ''
      if (prettyJSON(c.arguments ?? '') === text) continue
      try {
        JSON.parse(text)
      } catch {
        setError(t('edit.bad_json', { name: c.name ?? '?' }))
        return
      }
      if (!(await run.editCall(c.id ?? '', JSON.stringify(JSON.parse(text))))) return
    }
    if ((newTask !== task || newInstr !== instructions) && !(await run.edit(newTask, newInstr))) return
    if (andResume && !(await run.resume())) return
    onClose()
  }
  return (
    <Modal title={t('edit.title')} onClose={onClose} testId="edit-dialog" wide>
      <label className="field">
        <span>{t('new.task')}</span>
        <textarea rows={3} value={newTask} onChange={(e) => setTask(e.target.value)} data-testid="edit-task" />
      </label>
      <label className="field">
        <span>{t('new.instructions')}</span>
        <textarea rows={2} value={newInstr} onChange={(e) => setInstr(e.target.value)} data-testid="edit-instructions" />
      </label>
      {pending.length > 0 && <p className="muted">{t('edit.pending_calls')}</p>}
      {pending.map((c) => (
        <label className="field" key={c.id}>
          <span>
            {c.name} <span className="muted">{c.id}</span>
          </span>
          <textarea className="mono" rows={4} value={args[c.id ?? '']} onChange={(e) => setArgs({ ...args, [c.id ?? '']: e.target.value })} data-testid="edit-call-args" data-call-id={c.id} />
        </label>
      ))}
      {error && <p className="notice notice-error">{error}</p>}
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" onClick={() => void save(false)} data-testid="edit-save">
          {t('edit.save')}
        </button>
        <button type="button" className="primary" onClick={() => void save(true)} data-testid="edit-save-resume">
          {t('edit.save_resume')}
        </button>
      </div>
    </Modal>
  )
}

/** ForkDialog starts a new run from iteration n with an edited task and instructions, at the run's model and endpoint or others. Why a fork failed shows here, not behind the dialog. */
export function ForkDialog({ n, max, view, onClose }: { n: number; max: number; view: RunView; onClose: () => void }) {
  const { run } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const [form, setForm] = useState(() => forkForm(n, view))
  const set = (patch: Partial<ForkForm>) => setForm((f) => ({ ...f, ...patch }))
  const { iteration } = form
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const fork = async () => {
    setBusy(true)
    setError(null)
    const id = await run.fork(forkRequest(form, view))
    setBusy(false)
    if (!id) {
      setError(run.get().actionError)
      return
    }
    onClose()
    window.location.hash = `#/runs/${encodeURIComponent(id)}`
  }
  return (
    <Modal title={t('fork.title')} onClose={onClose} testId="fork-dialog" wide>
      <p className="muted">{t('fork.explain')}</p>
      <div className="fork-first">
        <label className="field">
          <span>{t('fork.iteration')}</span>
          <input type="number" min={1} max={max} value={iteration} onChange={(e) => set({ iteration: Number(e.target.value) })} data-testid="fork-iteration" />
        </label>
        <label className="field">
          <span>{t('fork.memory')}</span>
          <select value={form.memory} onChange={(e) => set({ memory: e.target.value as ForkMemory })} data-testid="fork-memory">
            {forkMemoryModes.map((mode) => (
              <option key={mode} value={mode}>
                {t(`fork.memory_${mode}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('new.workspace')}</span>
          <span className="field-row">
            <input value={form.workspace} onChange={(e) => set({ workspace: e.target.value })} data-testid="fork-workspace" />
            <FolderButton title={t('desktop.choose_fork_workspace')} start={form.workspace} onChoose={(workspace) => set({ workspace })} testId="fork-workspace-choose" />
          </span>
        </label>
      </div>
      <p className="muted field-hint">{t('fork.memory_hint')}</p>
      <label className="field">
        <span>{t('new.task')}</span>
        <textarea rows={3} value={form.task} onChange={(e) => set({ task: e.target.value })} data-testid="fork-task" />
      </label>
      <label className="field">
        <span>{t('new.instructions')}</span>
        <textarea rows={2} value={form.instructions} onChange={(e) => set({ instructions: e.target.value })} data-testid="fork-instructions" />
      </label>
      <div className="row2">
        <label className="field">
          <span>{t('new.model')}</span>
          <input value={form.model} onChange={(e) => set({ model: e.target.value })} spellCheck={false} data-testid="fork-model" />
        </label>
        <label className="field">
          <span>{t('new.base_url')}</span>
          <input value={form.baseUrl} onChange={(e) => set({ baseUrl: e.target.value })} spellCheck={false} data-testid="fork-base-url" />
        </label>
      </div>
      <p className="muted field-hint">{t('fork.model_hint')}</p>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="fork-error">
          {t('fork.failed', { error: error.messageIn(lang) })}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" disabled={busy || iteration < 1 || iteration > max} onClick={() => void fork()} data-testid="fork-start">
          {t('fork.start', { n: iteration })}
        </button>
      </div>
    </Modal>
  )
}

const pageBytes = 256 * 1024

/** ArtifactDialog shows the full output of a call, a page at a time. */
export function ArtifactDialog({ runId, call, onClose }: { runId: string; call: CallView; onClose: () => void }) {
  const api = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const [text, setText] = useState('')
  const [total, setTotal] = useState(0)
  const [error, setError] = useState('')
  const load = async (offset: number) => {
    try {
      const a = await api.artifact(runId, call.artifact, offset, pageBytes)
      setText((prev) => (offset === 0 ? a.text : prev + a.text))
      setTotal(a.total)
    } catch (err) {
      setError(toApiError(err).messageIn(lang))
    }
  }
  useEffect(() => {
    void load(0)
    // Loaded once per call shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [call.artifact])
  const loaded = new TextEncoder().encode(text).length
  return (
    <Modal title={t('artifact.title', { name: call.name, size: formatBytes(total || call.size, lang) })} onClose={onClose} testId="artifact-dialog" wide>
      {error && <p className="notice notice-error">{error}</p>}
      <pre className="artifact" data-testid="artifact-text">
        {text}
      </pre>
      <div className="dialog-actions">
        {total > loaded && (
          <button type="button" onClick={() => void load(loaded)}>
            {t('artifact.more', { left: formatBytes(total - loaded, lang) })}
          </button>
        )}
        {text && <CopyButton text={text} label={t('copy.output')} testId="copy-output" />}
      </div>
    </Modal>
  )
}

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const t = useT()
  return (
    <Modal title={t('help.title')} onClose={onClose} testId="help">
      <table className="shortcuts">
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.action}>
              <td>
                {s.keys.map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </td>
              <td>{t(`help.${s.action}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  )
}
