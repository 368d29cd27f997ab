/**
 * Drawn says whether the page is being drawn: whether the animation frames
 * it asks for come. A hidden tab gets none, and a page behind another may
 * get one a second; what such a page draws waits for that rare frame and
 * is laid out and painted all at once in it.
 */
export interface Drawn {
  now(): boolean
  set(drawn: boolean): void
  /** onDrawn calls fn each time the page is drawn again after it was not; the function it returns stops it. */
  onDrawn(fn: () => void): () => void
}

export function createDrawn(): Drawn {
  let drawn = true
  const waiting = new Set<() => void>()
  return {
    now: () => drawn,
    set: (v) => {
      const was = drawn
      drawn = v
      if (v && !was) for (const fn of [...waiting]) fn()
    },
    onDrawn: (fn) => {
      waiting.add(fn)
      return () => void waiting.delete(fn)
    },
  }
}

/** pageDrawn is this page's: the run store's frames learn it (createFrame), the timeline and the lagged shell read it. */
export const pageDrawn = createDrawn()
