/** How many of the values kept beside a summary its card names; a dump of
 * random text once left hundreds, so the rest are only counted. */
export const entitiesShown = 8

export interface ShownEntity {
  value: string
  /** added by the check: the new summary had lost it */
  added: boolean
}

/** shownEntities picks the values a compression card names: those the
 * check added first, then the others, at most n; more counts the rest. */
export function shownEntities(entities: string[], added: string[], n = entitiesShown): { shown: ShownEntity[]; more: number } {
  const isAdded = new Set(added)
  const all = [...new Set([...added, ...entities.filter((e) => !isAdded.has(e))])]
  return {
    shown: all.slice(0, n).map((value) => ({ value, added: isAdded.has(value) })),
    more: Math.max(all.length - n, 0),
  }
}
