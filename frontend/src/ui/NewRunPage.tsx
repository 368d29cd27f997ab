import { useEffect, useState } from 'react'
import type { ModelCheck, StartRunRequest, Toolset } from '../api/types'
import { toApiError } from '../api/api'
import { dropped, recentWorkspaces, rememberWorkspace, workspaceChoices } from '../lib/desktop'
import { otherEndpoint } from '../lib/endpoint'
import { runHref, runsHref } from '../lib/route'
import { runSandbox } from '../lib/sandbox'
import { toolsSummary } from '../lib/tools'
import { useAppState, useAppStore, useRunsState, useT } from './appContext'
import { FolderButton, localStore } from './FolderButton'

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname
    return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.')
  } catch {
    return false
  }
}

/** The form's fields; max_iterations is kept as typed and sent as a number. */
type Form = Omit<StartRunRequest, 'max_iterations'> & { max_iterations?: string }

/** The sandbox modes a run may ask for; "" is [tools] sandbox's. */
const sandboxModes = [
  ['', 'new.sandbox_default', 'new.sandbox_default_hint'],
  ['workspace', 'new.sandbox_workspace', 'sandbox.mode_hint.workspace'],
  ['read-only', 'new.sandbox_read_only', 'sandbox.mode_hint.read-only'],
  ['off', 'new.sandbox_off', 'sandbox.mode_hint.off'],
] as const

/** The long-term memory modes a run may ask for; "" is [context] memory's. */
const memoryModes = [
  ['', 'new.memory_default', 'new.memory_default_hint'],
  ['on', 'new.memory_on', 'new.memory_on_hint'],
  ['read', 'new.memory_read', 'new.memory_read_hint'],
  ['off', 'new.memory_off', 'new.memory_off_hint'],
] as const

/** The New run form: what to run, with what model, under which strategy and limit, checked before it starts. */
export function NewRunPage() {
  const store = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const settings = useAppState((s) => s.settings)
  // A folder dropped on the window is the workspace (Desktop.tsx).
  const [form, setForm] = useState<Form>(() => ({ task: '', instructions: '', workspace: dropped.get().workspace, model: '', base_url: '', max_iterations: '', strategy: '', sandbox: '', memory: '' }))
  const [check, setCheck] = useState<ModelCheck | null>(null)
  const [busy, setBusy] = useState<'' | 'check' | 'start'>('')
  const [startError, setStartError] = useState('')

  useEffect(() => {
    void store.loadSettings()
  }, [store])
  useEffect(() => {
    dropped.set({ workspace: '' })
    return dropped.subscribe(() => {
      const { workspace } = dropped.get()
      if (workspace) {
        setForm((f) => ({ ...f, workspace }))
        dropped.set({ workspace: '' })
      }
    })
  }, [])
  const runs = useRunsState((r) => r.index)
  const choices = workspaceChoices(recentWorkspaces(localStore()), runs.ids.map((id) => runs.byId[id]))

  const s = settings.value
  // What [tools] sandbox gives a run now, named in the default choice.
  const configured = runSandbox(t, s?.sandbox)
  const model = form.model?.trim() || s?.model || ''
  const baseUrl = form.base_url?.trim() || s?.base_url || ''
  const needsKey = s !== null && !s.has_key && !isLoopback(baseUrl)
  const typedUrl = form.base_url?.trim() ?? ''
  // The check's answer, once there is one, says all there is to say of the
  // key: the hint given before it would only repeat or contradict it.
  const other = s !== null && check === null && otherEndpoint(typedUrl, s.base_url, s.endpoints ?? [])
  const set = (k: keyof Form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    setForm({ ...form, [k]: e.target.value })
    if (k === 'model' || k === 'base_url') setCheck(null)
  }

  const runCheck = async (): Promise<boolean> => {
    setBusy('check')
    const result = await store.checkModel({ model: form.model?.trim() || undefined, base_url: form.base_url?.trim() || undefined })
    setCheck(result)
    setBusy('')
    return result.ok
  }

  const start = async (e: React.FormEvent) => {
    e.preventDefault()
    setStartError('')
    if (!(await runCheck())) return
    setBusy('start')
    try {
      const req: StartRunRequest = { task: form.task.trim() }
      for (const k of ['instructions', 'workspace', 'model', 'base_url', 'strategy', 'sandbox', 'memory'] as const) {
        const v = form[k]?.trim()
        if (v) req[k] = v
      }
      const max = Number(form.max_iterations)
      if (Number.isInteger(max) && max > 0) req.max_iterations = max
      const id = await store.startRun(req)
      if (req.workspace) rememberWorkspace(localStore(), req.workspace)
      window.location.hash = runHref(id)
    } catch (err) {
      setStartError(toApiError(err).messageIn(lang))
    } finally {
      setBusy('')
    }
  }

  return (
    <section className="page new-run-page" data-testid="new-run-page">
      <a className="back" href={runsHref}>
        ← {t('run.back')}
      </a>
      <div className="page-head">
        <h1>{t('new.heading')}</h1>
      </div>
      <div className="new-run-grid">
        <form className="panel form" onSubmit={(e) => void start(e)}>
          <label>
            <span>{t('new.task')}</span>
            <textarea data-testid="new-task" required rows={4} value={form.task} onChange={set('task')} placeholder={t('new.task_hint')} />
          </label>
          <label>
            <span>{t('new.instructions')}</span>
            <textarea data-testid="new-instructions" rows={2} value={form.instructions} onChange={set('instructions')} placeholder={t('new.instructions_hint')} />
          </label>
          <label>
            <span>{t('new.workspace')}</span>
            <span className="field-row">
              <input data-testid="new-workspace" list="new-workspace-recent" value={form.workspace} onChange={set('workspace')} placeholder={s?.workspace || t('new.workspace_hint')} />
              <FolderButton title={t('desktop.choose_workspace')} start={form.workspace || s?.workspace || ''} onChoose={(workspace) => setForm((f) => ({ ...f, workspace }))} testId="new-workspace-choose" />
            </span>
            <datalist id="new-workspace-recent" data-testid="new-workspace-recent" aria-label={t('desktop.recent')}>
              {choices.map((w) => (
                <option key={w} value={w} />
              ))}
            </datalist>
          </label>
          <label>
            <span>{t('new.sandbox')}</span>
            <select data-testid="new-sandbox" value={form.sandbox} onChange={set('sandbox')}>
              {sandboxModes.map(([mode, label]) => (
                <option key={mode} value={mode}>
                  {mode === '' && configured ? `${t(label)}: ${configured.text}` : t(label)}
                </option>
              ))}
            </select>
          </label>
          <p className={`field-hint ${form.sandbox === 'off' ? 'warn' : 'muted'}`} data-testid="new-sandbox-hint">
            {t(sandboxModes.find(([mode]) => mode === form.sandbox)?.[2] ?? 'new.sandbox_default_hint')}
          </p>
          <label>
            <span>{t('new.memory')}</span>
            <select data-testid="new-memory" value={form.memory} onChange={set('memory')}>
              {memoryModes.map(([mode, label]) => (
                <option key={mode} value={mode}>
                  {t(label)}
                </option>
              ))}
            </select>
          </label>
          <p className="muted field-hint" data-testid="new-memory-hint">
            {t(memoryModes.find(([mode]) => mode === form.memory)?.[2] ?? 'new.memory_default_hint')}
          </p>
          <div className="row2">
            <label>
              <span>{t('new.model')}</span>
              <input data-testid="new-model" value={form.model} onChange={set('model')} placeholder={s?.model || ''} />
            </label>
            <label>
              <span>{t('new.base_url')}</span>
              <input data-testid="new-base-url" value={form.base_url} onChange={set('base_url')} placeholder={s?.base_url || ''} />
            </label>
          </div>
          <div className="row2">
            <label>
              <span>{t('new.strategy')}</span>
              <select data-testid="new-strategy" value={form.strategy} onChange={set('strategy')}>
                <option value="">{t('new.strategy_default')}</option>
                <option value="plan">{t('new.strategy_plan')}</option>
                <option value="react">{t('new.strategy_react')}</option>
              </select>
            </label>
            <label>
              <span>{t('new.max_iterations')}</span>
              <input data-testid="new-max-iterations" type="number" min={1} step={1} value={form.max_iterations} onChange={set('max_iterations')} placeholder={t('new.max_iterations_hint')} />
            </label>
          </div>
          {other ? (
            <div className="notice notice-warn" data-testid="new-base-url-hint" data-other="true">
              <p>{t('new.base_url_other', { url: typedUrl, configured: s?.base_url || '–' })}</p>
              <pre className="command">{`[[model.endpoints]]\nbase_url = "${typedUrl}"\napi_key_env = "OTHER_API_KEY"`}</pre>
            </div>
          ) : (
            <p className="muted field-hint" data-testid="new-base-url-hint" data-other="false">
              {t('new.base_url_hint')}
            </p>
          )}
          {check && (
            <div className={`notice ${check.ok ? 'notice-ok' : 'notice-error'}`} role="status" data-testid="new-check" data-ok={check.ok ? 'true' : 'false'}>
              {check.ok
                ? t(check.key_sent ? 'new.check_ok' : 'new.check_ok_no_key', { model, url: baseUrl })
                : (check.error?.message?.[lang] ?? check.error?.message?.en ?? t('new.check_failed'))}
            </div>
          )}
          {startError && (
            <div className="notice notice-error" role="alert">
              {startError}
            </div>
          )}
          <div className="actions">
            <button type="button" disabled={busy !== ''} onClick={() => void runCheck()} data-testid="new-check-button">
              {busy === 'check' ? t('new.checking') : t('new.check')}
            </button>
            <button type="submit" className="primary" disabled={busy !== '' || !form.task.trim()} data-testid="new-start">
              {busy === 'start' ? t('new.starting') : t('new.start')}
            </button>
          </div>
        </form>
        <aside className="panel settings" data-testid="new-settings">
          <h2>{t('new.configured')}</h2>
          {settings.status === 'error' && settings.error && <p className="notice notice-error">{settings.error.messageIn(lang)}</p>}
          {s && (
            <dl>
              <dt>{t('new.model')}</dt>
              <dd>{s.model || '–'}</dd>
              <dt>{t('new.base_url')}</dt>
              <dd>{s.base_url || '–'}</dd>
              <dt>{t('new.key')}</dt>
              <dd data-testid="new-has-key">{s.has_key ? t('new.key_set') : t('new.key_missing')}</dd>
              <dt>{t('new.workspace')}</dt>
              <dd>{s.workspace || '–'}</dd>
              <dt>{t('new.home')}</dt>
              <dd>{s.home}</dd>
            </dl>
          )}
          {s?.tools && <ConfiguredTools tools={s.tools} />}
          {needsKey && (
            <div className="notice notice-warn" data-testid="new-no-key">
              <p>{t('new.no_key')}</p>
              <pre className="command">{`# ${s?.home ?? '~/.hermes'}/hermes.toml\n[model]\nbase_url = "${baseUrl || 'https://api.openai.com/v1'}"\nmodel = "${model || 'gpt-4o-mini'}"\napi_key_env = "OPENAI_API_KEY"`}</pre>
              <p>{t('new.no_key_env')}</p>
              <p className="muted">{t('new.no_key_local')}</p>
            </div>
          )}
          {/* The free sample is for who has no model to run yet. */}
          {s && (!s.model || needsKey) && (
            <p className="muted" data-testid="new-sample-hint">
              {t('new.sample_hint')}
            </p>
          )}
        </aside>
      </div>
    </section>
  )
}

/** ConfiguredTools lists the vault, the skills and the MCP servers a new run gets, as hermes.toml says now. */
function ConfiguredTools({ tools }: { tools: Toolset }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const sum = toolsSummary(tools)
  return (
    <>
      <h2>{t('new.tools')}</h2>
      {tools.error ? (
        <>
          <p className="notice notice-error" data-testid="new-tools-error">
            {tools.error.message?.[lang] ?? tools.error.message?.en}
          </p>
          {/* The vault's folder gone is the error most often: it is set again here. */}
          <dl>
            <dt>{t('new.vault')}</dt>
            <dd>
              <VaultSetting vault={sum.vault} />
            </dd>
          </dl>
        </>
      ) : (
        <dl data-testid="new-tools">
          <dt>{t('new.vault')}</dt>
          <dd>
            <VaultSetting vault={sum.vault} />
          </dd>
          <dt>{t('new.skills')}</dt>
          <dd data-testid="new-skills">
            {sum.on.join(', ') || '–'}
            {sum.off.length > 0 && <span className="muted"> · {t('new.skills_off', { names: sum.off.join(', ') })}</span>}
            {sum.failed.map((s) => (
              <div key={s.name} data-testid="new-skill-failed" data-name={s.name} className="warn">
                {t('new.skill_failed', { name: s.name, why: s.problem?.[lang] ?? s.problem?.en ?? '' })}
              </div>
            ))}
          </dd>
          <dt>{t('new.mcp')}</dt>
          <dd data-testid="new-mcp">
            {sum.servers.length === 0
              ? t('new.mcp_none')
              : sum.servers.map((srv) => (
                  <div key={srv.name} data-testid="new-mcp-server" data-name={srv.name} data-state={srv.state} className={srv.state === 'failed' ? 'warn' : undefined}>
                    {srv.state === 'loaded'
                      ? t('new.mcp_loaded', { name: srv.name, n: srv.tools })
                      : srv.state === 'off'
                        ? t('new.mcp_off', { name: srv.name })
                        : t('new.mcp_failed', { name: srv.name, why: srv.problem?.[lang] ?? srv.problem?.en ?? '' })}
                  </div>
                ))}
          </dd>
        </dl>
      )}
      <p className="muted field-hint">{t('new.tools_apply')}</p>
    </>
  )
}

/**
 * VaultSetting is [obsidian] vault, set where the Configured panel shows it:
 * typed, or chosen in the system's folder dialog in the window, and saved
 * into hermes.toml with its comments kept; new runs get it. Cleared and
 * saved, new runs get no vault.
 */
function VaultSetting({ vault }: { vault: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const store = useAppStore()
  // null: as hermes.toml says.
  const [typed, setTyped] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [said, setSaid] = useState<'' | 'saved' | 'removed'>('')
  const [error, setError] = useState('')
  const value = typed ?? vault
  const changed = typed !== null && typed.trim() !== vault
  const edit = (v: string) => {
    setTyped(v)
    setSaid('')
    setError('')
  }
  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError('')
    try {
      await store.setVault(value.trim())
      setTyped(null)
      setSaid(value.trim() ? 'saved' : 'removed')
    } catch (err) {
      setError(toApiError(err).messageIn(lang))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="vault-setting" onSubmit={(e) => void save(e)} data-testid="vault-setting">
      <span className="field-row">
        <input data-testid="new-vault" aria-label={t('new.vault')} value={value} onChange={(e) => edit(e.target.value)} placeholder={t('new.vault_none')} />
        <FolderButton title={t('desktop.choose_vault')} start={value} onChoose={edit} testId="vault-choose" />
        <button type="submit" className="button" disabled={busy || !changed} data-testid="vault-save">
          {busy ? t('vault.saving') : t('vault.save')}
        </button>
      </span>
      {error && (
        <span className="field-hint warn" role="alert" data-testid="vault-error">
          {error}
        </span>
      )}
      {said && (
        <span className="field-hint muted" role="status" data-testid="vault-saved">
          {t(said === 'saved' ? 'vault.saved' : 'vault.removed')}
        </span>
      )}
    </form>
  )
}
