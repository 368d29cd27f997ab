import type { ApprovalRequestedData, Blocked, SandboxData, ToolSandbox } from '../api/types'
import type { MessageKey } from '../i18n/messages'
import type { Lang, Translate } from '../i18n/i18n'

// How a run's commands are confined (run.started's sandbox) and how each
// call's process ran (tool.finished's), turned into the lines the run page
// shows. The backend says why in the process's language; the UI words the
// rest.

/** RunSandbox is the run header's badge: its one line, and the lines of its detail. */
export interface RunSandbox {
  /** false: commands run with the user's rights, a warning. */
  enforced: boolean
  text: string
  detail: string[]
}

const modes = ['workspace', 'read-only', 'off'] as const
const modeKey = (mode: string) => (modes.includes(mode as (typeof modes)[number]) ? mode : 'other')

/** runSandbox is the badge of a run's sandbox, or null for a run logged before there was one. */
export function runSandbox(t: Translate, s: SandboxData | null | undefined): RunSandbox | null {
  if (!s) return null
  const mode = t(`sandbox.mode.${modeKey(s.mode)}` as MessageKey, { mode: s.mode })
  const detail = [t(`sandbox.mode_hint.${modeKey(s.mode)}` as MessageKey, { mode: s.mode })]
  if (!s.enforced) {
    return { enforced: false, text: s.why ? t('sandbox.not_sandboxed_why', { why: s.why }) : t('sandbox.not_sandboxed'), detail }
  }
  const parts = [t('sandbox.sandboxed'), mode, t(s.network ? 'sandbox.network' : 'sandbox.no_network')]
  if (s.how) detail.push(t('sandbox.how', { how: s.how }))
  for (const gap of s.gaps ?? []) detail.push(t('sandbox.gap', { gap }))
  return { enforced: true, text: parts.join(' · '), detail }
}

/** CallSandbox is how one call's process ran, as its card says it. */
export interface CallSandbox {
  state: 'confined' | 'blocked' | 'escaped' | 'unconfined'
  label: string
  /** The label's tooltip: why it ran unconfined, or what the sandbox is. */
  hint: string
  /** What the sandbox stopped, one line each. */
  blocked: string[]
}

/** callSandbox is what a call's card says of its process, or null for a tool that started none. */
export function callSandbox(t: Translate, s: ToolSandbox | null | undefined): CallSandbox | null {
  if (!s) return null
  const blocked = (s.blocked ?? []).map((b) => blockedLine(t, b))
  if (blocked.length > 0) return { state: 'blocked', label: t('sandbox.call.blocked'), hint: t('sandbox.call.blocked_hint'), blocked }
  if (s.escaped) return { state: 'escaped', label: t('sandbox.call.escaped'), hint: t('sandbox.call.escaped_hint'), blocked }
  if (s.confined) return { state: 'confined', label: t('sandbox.call.confined'), hint: t('sandbox.call.confined_hint'), blocked }
  return { state: 'unconfined', label: t('sandbox.call.unconfined'), hint: s.why || t('sandbox.call.unconfined_hint'), blocked }
}

const kinds = ['write', 'read', 'link', 'process', 'network', 'call'] as const

/** blockedLine says one thing the sandbox stopped, in words of its kind: "write /x (outside the workspace)". */
export function blockedLine(t: Translate, b: Blocked): string {
  const by = b.by ? t('sandbox.by', { by: b.by }) : ''
  const kind = kinds.includes(b.kind as (typeof kinds)[number]) ? b.kind : 'other'
  return t(`sandbox.blocked.${kind}` as MessageKey, { what: b.what, by, kind: b.kind })
}

/** ApprovalChoices are what an approval card offers: a call escaping the sandbox is allowed once or denied, nothing else covers it. */
export interface ApprovalChoices {
  escaping: boolean
  /** "allow for this run" and "always allow" are offered. */
  lasting: boolean
  /** An execute_command line's simple commands, one a line. */
  commands: string[]
  /** Why the line is asked whatever the rules say (in English, as the policy says it). */
  risky: string[]
  /** The "always" patterns offered, joined as the answer takes them: one rule per ";"-separated pattern. */
  offered: string
}

export function approvalChoices(a: Pick<ApprovalRequestedData, 'escaping' | 'commands' | 'risky' | 'patterns'>): ApprovalChoices {
  const escaping = a.escaping ?? false
  return {
    escaping,
    lasting: !escaping,
    commands: a.commands ?? [],
    risky: a.risky ?? [],
    offered: (a.patterns ?? []).join('; '),
  }
}

/**
 * approvalReason is why the call is asked, in the page's language: the
 * process that runs it words `reason` in its own, which the page's need not
 * be; a request from an older log has only `reason`.
 */
export function approvalReason(a: Pick<ApprovalRequestedData, 'reason' | 'reason_in'>, lang: Lang): string {
  return a.reason_in?.[lang] || a.reason || ''
}

/**
 * alwaysPattern is the pattern an "always" answer sends: what the person
 * left in the field, or, when they emptied it, the patterns offered, as
 * the terminal takes an empty line. Emptied with none offered, it is ""
 * (the tool with any arguments), as before there were patterns.
 */
export function alwaysPattern(typed: string, offered: string): string {
  return typed.trim() || offered
}
