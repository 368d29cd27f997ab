import type { Notice, UpdateStatus } from '../api/types'

/** applyNotice puts n in place of the notice with its id; a reloaded config clears the config's notice and is not kept. */
export function applyNotice(list: readonly Notice[], n: Notice): Notice[] {
  const rest = list.filter((x) => x.id !== n.id)
  return n.kind === 'config_reloaded' ? rest : [...rest, n]
}

/**
 * dismissKey names what a person dismissed: one config mistake (by when it
 * was told), or one stage of one update, so that a dismissed download
 * still says when the update is ready.
 */
export function dismissKey(n: Notice): string {
  if (n.kind === 'update') return `update:${n.update?.version ?? ''}:${n.update?.state ?? ''}`
  return `${n.id}@${n.time}`
}

/** updateProgress is the share of the download done, 0..1. */
export function updateProgress(s: UpdateStatus): number {
  if (!s.total || s.total <= 0) return s.state === 'ready' || s.state === 'applying' || s.state === 'applied' ? 1 : 0
  return Math.min(1, Math.max(0, (s.done ?? 0) / s.total))
}

/**
 * updateAction is what a ready update's card offers: the restart button in
 * the window, `hermes update` for hermes serve, which a browser cannot
 * restart, or for a .deb install (which Hermes never overwrites) the package
 * manager's command that installs the downloaded package; null before then.
 */
export function updateAction(n: Notice): 'restart' | 'cli' | 'package' | null {
  const s = n.update
  if (!s || s.state !== 'ready') return null
  if (s.form === 'package') return 'package'
  return n.restart ? 'restart' : 'cli'
}

/** updateNotes are the release notes in lang: the Chinese ones when there are any. */
export function updateNotes(s: UpdateStatus, lang: string): string {
  return (lang === 'zh-CN' && s.notes_zh) || s.notes || s.notes_zh || ''
}
