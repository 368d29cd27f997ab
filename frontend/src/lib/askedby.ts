import type { Asker } from '../api/types'

/**
 * askedBy is who gave a chat task, as the runs list and the run page show it
 * after "Asked by" / "提问人": the name, then the departments ("张三 · 研发部").
 * It is "" when the contacts gave no name, so the caller shows the chat id.
 */
export function askedBy(a: Asker | null | undefined): string {
  const name = a?.name?.trim()
  if (!name) return ''
  const depts = (a?.departments ?? []).filter((d) => d.trim() !== '')
  return depts.length > 0 ? `${name} · ${depts.join(', ')}` : name
}
