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

/** updateNotes are the release notes in lang: the Chinese ones when there are any. */
export function updateNotes(s: UpdateStatus, lang: string): string {
  return (lang === 'zh-CN' && s.notes_zh) || s.notes || s.notes_zh || ''
}
